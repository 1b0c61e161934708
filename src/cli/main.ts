import { Command } from 'commander';

/** Runs the CLI with `argv` (as in process.argv) and returns the exit code. */
export async function main(argv: string[]): Promise<number> {
  const program = new Command('kubelet-atlas');
  program.description('A source-reading companion for the Kubernetes kubelet');
  await program.parseAsync(argv);
  return 0;
}
