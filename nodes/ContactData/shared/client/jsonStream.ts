/** Reads a small JSON answer (an error, or an export's 202) from a stream. */
export async function readJsonStream(stream: AsyncIterable<Buffer | string>): Promise<unknown> {
	const chunks: Buffer[] = [];
	for await (const chunk of stream)
		chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
	const text = Buffer.concat(chunks).toString('utf8');
	try {
		return text === '' ? undefined : (JSON.parse(text) as unknown);
	} catch {
		return text;
	}
}
