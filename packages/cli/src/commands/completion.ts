/**
 * `logfilter completion bash|zsh|fish`: a shell completion script, generated from the program's own commands
 * and options (so it never lags behind them). Install: `source <(logfilter completion bash)` in ~/.bashrc;
 * `source <(logfilter completion zsh)` in ~/.zshrc; `logfilter completion fish > ~/.config/fish/completions/logfilter.fish`.
 * Words complete by the subcommand path typed so far; where no word fits, file names (bash, zsh).
 */
import { Argument, type Command } from 'commander';
import type { CliContext } from '../context.js';
import { EXIT_OK } from '../errors.js';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;

interface Node {
  /** "" for the root, "/jobs", "/jobs/create", … */
  path: string;
  subcommands: string[];
  options: { flag: string; description: string }[];
}

/** Every command of the tree with its subcommands and (visible) long options. */
export function commandTree(program: Command): Node[] {
  const out: Node[] = [];
  const walk = (cmd: Command, path: string) => {
    const subs = cmd.commands.filter((c) => !(c as unknown as { _hidden?: boolean })._hidden);
    const options = cmd.options.filter((o) => !o.hidden && o.long).map((o) => ({ flag: o.long!, description: o.description }));
    // a command's aliases (`logpush` for `jobs`) complete as it does, subcommands included
    const names = (c: Command) => [c.name(), ...c.aliases()];
    out.push({ path, subcommands: subs.flatMap(names), options: [...options, { flag: '--help', description: 'display help' }] });
    for (const c of subs) for (const n of names(c)) walk(c, `${path}/${n}`);
  };
  walk(program, '');
  return out;
}

const single = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

function bash(name: string, tree: Node[]): string {
  const fn = `_${name.replace(/[^A-Za-z0-9]/g, '_')}`;
  // bash refuses an empty key: every path starts with @ (the root is "@", then "@/jobs", …)
  const entries = tree.map((n) => `  [${single(`@${n.path}`)}]=${single([...n.subcommands, ...n.options.map((o) => o.flag)].join(' '))}`).join('\n');
  return `# ${name} completion for bash (and zsh through bashcompinit): source <(${name} completion bash)
declare -gA ${fn}_words=(
${entries}
)
${fn}() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" path="@" w i
  for ((i = 1; i < COMP_CWORD; i++)); do
    w="\${COMP_WORDS[i]}"
    case "$w" in
      -*) ;;
      *) if [[ -n "\${${fn}_words[$path/$w]+x}" ]]; then path="$path/$w"; fi ;;
    esac
  done
  COMPREPLY=($(compgen -W "\${${fn}_words[$path]}" -- "$cur"))
}
complete -o default -F ${fn} ${name}
`;
}

function zsh(name: string, tree: Node[]): string {
  return `# ${name} completion for zsh: source <(${name} completion zsh)
autoload -U +X bashcompinit && bashcompinit
${bash(name, tree).split('\n').slice(1).join('\n')}`;
}

function fish(name: string, tree: Node[]): string {
  const fn = `__${name.replace(/[^A-Za-z0-9]/g, '_')}_path`;
  const lines = [
    `# ${name} completion for fish: ${name} completion fish > ~/.config/fish/completions/${name}.fish`,
    `set -g ${fn}s ${tree.filter((n) => n.path !== '').map((n) => single(n.path)).join(' ')}`,
    `function ${fn}`,
    `    set -l path ''`,
    `    for w in (commandline -opc)[2..-1]`,
    `        if not string match -q -- '-*' $w; and contains -- "$path/$w" $${fn}s`,
    `            set path "$path/$w"`,
    `        end`,
    `    end`,
    `    echo $path`,
    `end`,
  ];
  for (const n of tree) {
    const when = `-n ${single(`test (${fn}) = ${single(n.path)}`)}`;
    if (n.subcommands.length) lines.push(`complete -c ${name} -f ${when} -a ${single(n.subcommands.join(' '))}`);
    for (const o of n.options) lines.push(`complete -c ${name} ${when} -l ${o.flag.slice(2)} -d ${single(o.description.split('\n')[0].slice(0, 80))}`);
  }
  return `${lines.join('\n')}\n`;
}

export function completionScript(shell: (typeof SHELLS)[number], name: string, program: Command): string {
  const tree = commandTree(program);
  return shell === 'bash' ? bash(name, tree) : shell === 'zsh' ? zsh(name, tree) : fish(name, tree);
}

export function registerCompletion(program: Command, ctx: CliContext, setExit: (code: number) => void): void {
  program
    .command('completion')
    .description('print a shell completion script (bash, zsh or fish)')
    .addArgument(new Argument('<shell>', 'the shell').choices([...SHELLS]))
    .action((shell: (typeof SHELLS)[number]) => {
      ctx.stdout.write(completionScript(shell, 'logfilter', program));
      setExit(EXIT_OK);
    });
}
