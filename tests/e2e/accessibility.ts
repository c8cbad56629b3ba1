import { expect, type Page, type TestInfo } from '@playwright/test';
import axe from 'axe-core';

/** The rules of WCAG 2.1, levels A and AA, that axe-core knows. */
const WCAG_21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
/**
 * Two of axe's best-practice rules that the shop holds itself to as well: every piece of content in a
 * landmark (the development banner was not), and heading levels that do not skip (h1 then h3).
 */
const ALSO_CHECKED = ['region', 'heading-order'];

export interface AuditResult {
  page: string;
  /** Rule violations and layout problems, one line each; empty when the page passed. */
  problems: string[];
  /** How many axe rules ran on the page and passed. */
  rulesPassed: number;
}

/**
 * Words that the layout breaks across lines ("Defa/ult"). Addresses, ids and numbers may break
 * anywhere, so only runs of letters in tokens without digits, "@" or "/" count as words; hidden text
 * has no boxes and is skipped.
 */
function wordsBrokenAcrossLines(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const broken: string[] = [];
    const lineCount = (range: Range) => new Set([...range.getClientRects()].filter((rect) => rect.width > 0).map((rect) => Math.round(rect.bottom))).size;
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? '';
      // A text on one line (most of a page's) breaks no word: only texts that wrap are read word by word.
      const whole = document.createRange();
      whole.selectNodeContents(node);
      if (lineCount(whole) < 2) continue;
      for (const token of text.matchAll(/\S+/g)) {
        if (/[\d@/]/.test(token[0])) continue;
        for (const word of token[0].matchAll(/\p{L}{2,}/gu)) {
          const start = token.index + word.index;
          const range = document.createRange();
          range.setStart(node, start);
          range.setEnd(node, start + word[0].length);
          const lines = lineCount(range);
          if (lines > 1) broken.push(`"${word[0]}" is broken across ${lines} lines`);
        }
      }
    }
    return broken;
  });
}

/**
 * Runs axe-core in the page itself (the shop has no frames). Its 550 KB script is evaluated once per
 * document and stays there: the app changes pages without reloading, so most audits of a test reuse it.
 */
async function runAxe(page: Page, options: axe.RunOptions): Promise<axe.AxeResults> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source);
  return page.evaluate((runOptions) => (window as unknown as { axe: typeof axe }).axe.run(document, runOptions), options);
}

/**
 * Checks what the page shows now: axe-core's WCAG 2.1 A and AA rules (and the two above), words
 * broken across lines, and sideways scrolling.
 */
export async function auditPage(page: Page, name: string): Promise<AuditResult> {
  // Transitions and the dialog's opening must not be caught half-way (colour contrast reads the colours).
  await page.waitForLoadState('load');
  await page.waitForTimeout(50);
  // Only violations are read: axe then keeps one example of each passed rule instead of every node it checked.
  const results = await runAxe(page, {
    runOnly: { type: 'tag', values: WCAG_21_AA },
    rules: Object.fromEntries(ALSO_CHECKED.map((rule) => [rule, { enabled: true }])),
    resultTypes: ['violations'],
  });
  const problems = results.violations.flatMap((violation) =>
    violation.nodes.map((node) => `${violation.id} (${violation.impact}): ${node.target.join(' ')}: ${node.failureSummary?.replace(/\s+/g, ' ')}`),
  );
  problems.push(...(await wordsBrokenAcrossLines(page)));
  if (await page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth)) problems.push('the page scrolls sideways');
  return { page: name, problems, rulesPassed: results.passes.length };
}

/** Audits pages one after another and reports them together, so that one run shows every problem. */
export class Auditor {
  private readonly results: AuditResult[] = [];

  constructor(
    private readonly page: Page,
    private readonly testInfo: TestInfo,
  ) {}

  async check(name: string): Promise<void> {
    this.results.push(await auditPage(this.page, name));
  }

  async report(): Promise<void> {
    // Every page's result goes into the test report: the full list attached, and a line per page.
    await this.testInfo.attach('accessibility audit', { body: JSON.stringify(this.results, null, 2), contentType: 'application/json' });
    for (const result of this.results) {
      this.testInfo.annotations.push({ type: 'axe', description: `${result.page}: ${result.problems.length} problems, ${result.rulesPassed} rules passed` });
    }
    expect(this.results.filter((result) => result.problems.length > 0)).toEqual([]);
  }
}

// Where the accessibility and keyboard specs have long found it.
export { signInRequest } from './sign-in-steps.js';
