// Runs the ESLint configuration `n8n-node lint` uses on the files of a scratch root, once, and
// prints what the rules find as JSON. A process of its own: n8n's lint plugins are ES modules,
// which jest's CommonJS runtime cannot load.
import { ESLint } from 'eslint';
import { config } from '@n8n/node-cli/eslint';

const [root, ...files] = process.argv.slice(2);
// `cwd` is the scratch root: the config's rules for nodes match `./nodes/**` from there.
const eslint = new ESLint({ cwd: root, overrideConfigFile: true, overrideConfig: config });
const results = await eslint.lintFiles(files);
process.stdout.write(
	JSON.stringify(
		results.flatMap(({ filePath, messages }) =>
			messages.map(({ ruleId, line, message }) => ({ filePath, ruleId, line, message })),
		),
	),
);
