/**
 * The package's own source as tests read it (they import no `node:` module): its files, the text
 * each writes as literals (strings, template parts, regular expressions; comments left out) and
 * the modules each imports.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

import { REPO_ROOT } from './files.cjs';

/** The TypeScript files under these folders of the repository, by their path from the root, sorted. */
export function sourceFiles(folders: string[]): string[] {
	const found: string[] = [];
	const walk = (folder: string) => {
		for (const entry of readdirSync(path.join(REPO_ROOT, folder), { withFileTypes: true })) {
			const relative = path.posix.join(folder, entry.name);
			if (entry.isDirectory()) walk(relative);
			else if (/\.c?ts$/.test(entry.name) && !entry.name.endsWith('.d.ts')) found.push(relative);
		}
	};
	for (const folder of folders) walk(folder);
	return found.sort();
}

/** A file of the repository parsed, or the text given as that file. */
function parse(
	file: string,
	text = readFileSync(path.join(REPO_ROOT, file), 'utf8'),
): ts.SourceFile {
	return ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
}

export interface Literal {
	line: number;
	text: string;
}

/** Every literal text in a file, with its line: what the file itself writes, not what it imports. */
export function literalsOf(file: string): Literal[] {
	const source = parse(file);
	const literals: Literal[] = [];
	const visit = (node: ts.Node) => {
		if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) return;
		if (
			ts.isStringLiteralLike(node) ||
			ts.isTemplateLiteralToken(node) ||
			ts.isRegularExpressionLiteral(node)
		) {
			const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
			literals.push({ line, text: node.text });
		}
		ts.forEachChild(node, visit);
	};
	visit(source);
	return literals;
}

/**
 * Patterns a file builds from an id prefix (`^${ID_PREFIXES.list}…`): an id pattern of its own, where
 * the contract's would do. Each as its line and source text.
 */
export function prefixPatternsOf(file: string): Literal[] {
	const source = parse(file);
	const found: Literal[] = [];
	const visit = (node: ts.Node) => {
		if (
			ts.isTemplateExpression(node) &&
			node.head.text.endsWith('^') &&
			node.templateSpans[0]?.expression.getText(source).startsWith('ID_PREFIXES')
		) {
			const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
			found.push({ line, text: node.getText(source) });
		}
		ts.forEachChild(node, visit);
	};
	visit(source);
	return found;
}

/**
 * The module specifiers a file imports or re-exports: `import type` included, and the inline
 * `import('…')` of a type or a dynamic import, so that no dependency escapes a structure test.
 */
export function importsOf(file: string): string[] {
	return specifiersIn(parse(file));
}

/**
 * The file a relative import names, by its path from the root, as TypeScript finds it: `x.ts`, else
 * `x/index.ts`; a specifier that names its file (`x.json`) as written.
 */
export function importedFile(file: string, specifier: string): string {
	const target = path.posix.join(path.posix.dirname(file), specifier);
	if (/\.(c?ts|json)$/.test(target)) return target;
	const index = `${target}/index.ts`;
	return existsSync(path.join(REPO_ROOT, index)) ? index : `${target}.ts`;
}

/** What importsOf reads in a TypeScript text: its declarations first, then inline imports in order. */
export function importsInText(text: string): string[] {
	return specifiersIn(parse('text.ts', text));
}

function specifiersIn(source: ts.SourceFile): string[] {
	const specifiers: string[] = [];
	for (const statement of source.statements) {
		if (
			(ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) &&
			statement.moduleSpecifier
		) {
			specifiers.push((statement.moduleSpecifier as ts.StringLiteral).text);
		}
	}
	const visit = (node: ts.Node) => {
		const inline = inlineSpecifierOf(node);
		if (inline !== undefined) specifiers.push(inline);
		ts.forEachChild(node, visit);
	};
	visit(source);
	return specifiers;
}

/** The specifier of `import('…').T` or `import('…')`, where the node is one. */
function inlineSpecifierOf(node: ts.Node): string | undefined {
	if (ts.isImportTypeNode(node)) {
		const { argument } = node;
		return ts.isLiteralTypeNode(argument) && ts.isStringLiteral(argument.literal)
			? argument.literal.text
			: undefined;
	}
	const dynamic = ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword;
	const [first] = dynamic ? node.arguments : [];
	return first && ts.isStringLiteralLike(first) ? first.text : undefined;
}

export interface Declaration {
	name: string;
	exported: boolean;
	/** An interface, type alias or class. */
	isType: boolean;
}

/** The top-level functions, classes, types, interfaces and variables a file declares. */
export function declarationsOf(file: string): Declaration[] {
	return parse(file).statements.flatMap((statement): Declaration[] => {
		const exported =
			ts.canHaveModifiers(statement) &&
			(ts.getModifiers(statement) ?? []).some(
				(modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword,
			);
		const named =
			ts.isInterfaceDeclaration(statement) ||
			ts.isTypeAliasDeclaration(statement) ||
			ts.isClassDeclaration(statement);
		if (named && statement.name) return [{ name: statement.name.text, exported, isType: true }];
		if (ts.isFunctionDeclaration(statement) && statement.name)
			return [{ name: statement.name.text, exported, isType: false }];
		if (!ts.isVariableStatement(statement)) return [];
		return statement.declarationList.declarations.flatMap((declaration) =>
			ts.isIdentifier(declaration.name)
				? [{ name: declaration.name.text, exported, isType: false }]
				: [],
		);
	});
}

export interface FunctionSpan {
	/** The function's name where it has one, else `(anonymous)`. */
	name: string;
	/** The line its body starts on. */
	line: number;
	lines: number;
}

/**
 * Every function-like node of a file with a body (methods, arrows and accessors included): its line
 * and the lines of its body, from the opening brace to the closing one (a signature Prettier wraps
 * over several lines is not counted).
 */
export function functionSpansOf(file: string): FunctionSpan[] {
	const source = parse(file);
	const lineOf = (position: number) => source.getLineAndCharacterOfPosition(position).line + 1;
	const spans: FunctionSpan[] = [];
	const visit = (node: ts.Node) => {
		if (ts.isFunctionLike(node) && 'body' in node && node.body) {
			const line = lineOf(node.body.getStart(source));
			const named = node.name ?? (node.parent as Partial<ts.NamedDeclaration>).name;
			const name = named?.getText(source) ?? '(anonymous)';
			spans.push({ name, line, lines: lineOf(node.body.getEnd()) - line + 1 });
		}
		ts.forEachChild(node, visit);
	};
	visit(source);
	return spans;
}
