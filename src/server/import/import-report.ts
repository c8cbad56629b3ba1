import type { ImportReport } from './import-run.js';

/** The report as the import command prints it: what was (or would be) done per collection, then every problem. */
export function printImportReport(report: ImportReport): string {
  const lines = [report.dryRun ? 'Dry run: nothing was written. An import would do this:' : 'Imported:'];
  const verbs = report.dryRun ? ['create', 'update', 'leave unchanged', 'skip'] : ['created', 'updated', 'unchanged', 'skipped'];
  const width = Math.max(...Object.keys(report.counts).map((name) => name.length));
  for (const [collection, counts] of Object.entries(report.counts)) {
    const numbers = [counts.created, counts.updated, counts.unchanged, counts.skipped].map((value, index) => `${value} ${verbs[index]}`);
    lines.push(`  ${collection.padEnd(width)}  ${numbers.join(', ')}`);
  }
  if (report.problems.length === 0) lines.push('No problems found.');
  else {
    lines.push(`${report.problems.length} problem(s):`);
    for (const problem of report.problems) {
      const where = [problem.collection, problem.id, problem.field].filter(Boolean).join(' / ');
      lines.push(`  ${where}: ${problem.message}`);
    }
  }
  return `${lines.join('\n')}\n`;
}
