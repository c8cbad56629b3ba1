import { ESLint } from 'eslint';
import { projectPath } from '#server/project-path.js';

const eslint = new ESLint({ cwd: projectPath() });

/** The messages of one rule for `text` linted as if it were written in `filePath`, with the project's own eslint.config.js. */
export async function ruleMessages(filePath: string, text: string, ruleId: string): Promise<string[]> {
  const [result] = await eslint.lintText(text, { filePath });
  return result!.messages.filter((message) => message.ruleId === ruleId).map((message) => message.message);
}
