#!/usr/bin/env node
// Editors start this with `--stdio`; with no transport flag stdio is assumed, so `logfilter-language-server` alone works too.
// --version and --help answer at once (package.json is beside the bin); started by hand on a terminal, with no
// transport flag, it says what it is instead of waiting silently for LSP messages (exit 2).
const args = process.argv.slice(2);
const USAGE = `usage: logfilter-language-server [--stdio | --node-ipc | --socket=PORT | --pipe=NAME] [--clientProcessId=PID]

The Logfilter language server (diagnostics, completion, hover, formatting, ... for .logfilter files and rules
expressions). Editors start it and speak the Language Server Protocol over the transport given (stdio when none).

  -V, --version  print the version
  -h, --help     print this help
`;
if (args.includes('--version') || args.includes('-V')) {
  process.stdout.write(`${require('../package.json').version}\n`);
} else if (args.includes('--help') || args.includes('-h')) {
  process.stdout.write(USAGE);
} else {
  const transport = args.some((a) => /^--(stdio|node-ipc|socket|pipe|clientProcessId)/.test(a));
  if (!transport && process.stdin.isTTY) {
    process.stderr.write(`logfilter-language-server: this is a language server: an editor starts it and speaks LSP on its standard input (run with --help for usage)\n`);
    process.exitCode = 2;
  } else {
    if (!transport) process.argv.push('--stdio');
    require('../dist/logfilter-language-server.cjs');
  }
}
