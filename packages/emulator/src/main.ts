/**
 * `logfilter-emulator`: runs the emulator until SIGINT/SIGTERM and prints its base URL on stdout when ready, so a
 * script can read the first line and start calling it. Exit 2 on a usage error, 1 when it cannot start.
 */
import { readFileSync } from 'node:fs';
import { jsonErrorPlace } from '@logfilter/core';
import { parseArgs } from 'node:util';
import { startEmulator, type EmulatorOptions } from './server.js';
import { StateFileError } from './state.js';
import { FixtureError } from './fixture.js';

const USAGE = `usage: logfilter-emulator [--port N] [--host H] [--token T]... [--email E --key K] [--data FILE]
                          [--fixture FILE] [--latency MS] [--rate-limit N [--rate-window SECONDS]] [--outbox DIR]
                          [--verbose]
       logfilter-emulator --version | --help`;

function usage(message: string): never {
  process.stderr.write(`logfilter-emulator: ${message}\n${USAGE}\n`);
  process.exit(2);
}

function int(name: string, raw: string | undefined, min: number, max: number): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^[0-9]+$/.test(raw) || Number(raw) < min || Number(raw) > max) usage(`--${name} must be an integer from ${min} to ${max}`);
  return Number(raw);
}

/** The fixture file as JSON; unreadable or malformed is exit 2 with the file's name and the parser's position. */
function readFixture(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    process.stderr.write(`logfilter-emulator: cannot read fixture ${file}: ${(e as Error).message}\n`);
    process.exit(2);
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    // the end of the text when nothing places it
    const { line, column } = jsonErrorPlace(text, (e as Error).message) ?? { line: text.split('\n').length, column: text.length - text.lastIndexOf('\n') };
    process.stderr.write(`logfilter-emulator: fixture ${file}:${line}:${column}: not JSON: ${(e as Error).message.split('\n')[0]}\n`);
    process.exit(2);
  }
}

async function main(): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        port: { type: 'string', default: '0' },
        host: { type: 'string', default: '127.0.0.1' },
        token: { type: 'string', multiple: true },
        email: { type: 'string' },
        key: { type: 'string' },
        data: { type: 'string' },
        fixture: { type: 'string' },
        latency: { type: 'string' },
        'rate-limit': { type: 'string' },
        'rate-window': { type: 'string' },
        outbox: { type: 'string' },
        verbose: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (e) {
    usage((e as Error).message);
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if ((values.email === undefined) !== (values.key === undefined)) usage('--email and --key go together');
  const fixture = values.fixture === undefined ? undefined : readFixture(values.fixture);
  const rateLimit = int('rate-limit', values['rate-limit'], 1, 1_000_000);
  const options: EmulatorOptions = {
    port: int('port', values.port, 0, 65535),
    host: values.host,
    tokens: values.token,
    email: values.email,
    key: values.key,
    dataFile: values.data,
    fixture,
    latencyMs: int('latency', values.latency, 0, 600_000),
    rateLimit: rateLimit ? { requests: rateLimit, windowSeconds: int('rate-window', values['rate-window'], 1, 86_400) ?? 60 } : undefined,
    outbox: values.outbox,
    log: values.verbose ? (line) => process.stderr.write(`${line}\n`) : undefined,
  };
  let emu;
  try {
    emu = await startEmulator(options);
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    if (e instanceof FixtureError) {
      // The fixture is the user's input: a usage error (2) naming the place in the file, like an unreadable one.
      process.stderr.write(`logfilter-emulator: fixture ${values.fixture}: ${err.message}\n`);
      process.exit(2);
    }
    const why = e instanceof StateFileError ? err.message : err.code === 'EADDRINUSE' ? `port ${options.port} is in use; pick another --port or 0` : err.message;
    process.stderr.write(`logfilter-emulator: cannot start: ${why}\n`);
    process.exit(1);
  }
  const running = emu;
  const stop = () => {
    void running.close().then(() => process.exit(0));
  };
  // Handlers first: a script may stop the emulator as soon as it reads the URL, and a signal that came before
  // them would kill the process without a clean exit.
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  for (const warning of emu.fixtureWarnings) process.stderr.write(`logfilter-emulator: warning: fixture ${values.fixture}: ${warning}\n`);
  process.stdout.write(`${emu.url}\n`);
}

void main();
