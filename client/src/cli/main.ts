/**
 * `vektor`, the command-line client (commander). Every failure is one line on stderr,
 * `error: CODE: message`, and an exit code: 0 success, 1 a failed job, run or call, 2 bad usage.
 */
import { Command, CommanderError } from "commander";
import { authCommands } from "./commands/auth";
import { batchCommand } from "./commands/batch";
import { fileCommands } from "./commands/files";
import { jobCommands } from "./commands/jobs";
import { mcpCommand } from "./commands/mcp";
import { runCommand } from "./commands/run";
import { tokenCommands } from "./commands/tokens";
import { workflowCommands } from "./commands/workflow";
import { describeError, EXIT } from "./context";

function program(): Command {
  const p = new Command("vektor")
    .description("Vektor from a terminal or a script: upload files, run tools, batches and workflows")
    .version("1.0.0")
    .option("--base-url <url>", "the server (default: VEKTOR_URL, the logged-in server, or http://127.0.0.1:8080)")
    .option("--json", "machine-readable output (JSON on stdout)")
    .addHelpText("after", "\nCredentials live in $VEKTOR_CONFIG, else $XDG_CONFIG_HOME/vektor/config.json, else ~/.config/vektor/config.json (mode 0600).\nExit codes: 0 success, 1 a failed job, run or call, 2 bad usage.");
  authCommands(p);
  tokenCommands(p);
  fileCommands(p);
  runCommand(p);
  jobCommands(p);
  batchCommand(p);
  workflowCommands(p);
  mcpCommand(p);
  // Every (sub)command: commander's own usage errors throw instead of exiting, as one line.
  const configure = (c: Command) => {
    c.exitOverride().configureOutput({ outputError: (line, write) => write(line.split("\n")[0] + "\n") });
    c.commands.forEach(configure);
  };
  configure(p);
  return p;
}

async function main(argv: string[]): Promise<number> {
  try {
    await program().parseAsync(argv);
    return EXIT.ok;
  } catch (err) {
    if (err instanceof CommanderError) {
      // Help and version are exits with code 0; everything else commander refuses is usage.
      return err.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    const { line, code } = describeError(err);
    process.stderr.write(`${line}\n`);
    return code;
  }
}

process.exitCode = await main(process.argv);
