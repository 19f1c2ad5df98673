import type { BuiltPage, OutputContext, OutputDefinition, OutputFile } from '../../runtime/shared/route-data.ts';

/** Runs an extra output over a list of pages at once, as the build does over the pages it streams. */
export async function collectOutput(output: OutputDefinition, ctx: OutputContext, pages: Iterable<BuiltPage>): Promise<OutputFile[]> {
  const collector = output(ctx);
  for (const page of pages) collector.page(page);
  return [...(await collector.files())];
}
