/**
 * Signed download URLs of bulk exports: `<exportDownload path>?expires=<unix s>&signature=<hex>`, an
 * HMAC of the id and the expiry under a secret of this sandbox, valid for an hour.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { LIMITS, PATHS, type ExportFormat } from '../nodes/ContactData/shared/client/contract';

export interface ExportJob {
	id: string;
	accountKey: string;
	listId: string;
	format: ExportFormat;
	fields: string[] | undefined;
	unlockedOnly: boolean;
	expiresAt: number;
}

export type UrlCheck =
	| { ok: true; job: ExportJob }
	| { ok: false; reason: 'bad_signature' | 'expired' | 'not_found' };

export class ExportUrls {
	private readonly secret = randomBytes(32);
	private readonly jobs = new Map<string, ExportJob>();

	private sign(id: string, expires: string): string {
		return createHmac('sha256', this.secret).update(`${id}.${expires}`).digest('hex');
	}

	/** Registers an export and returns the path and query of its signed URL. */
	create(
		job: Omit<ExportJob, 'id' | 'expiresAt'>,
		now: number,
	): { job: ExportJob; pathAndQuery: string } {
		for (const [known, existing] of this.jobs)
			if (existing.expiresAt <= now) this.jobs.delete(known);
		const id = `ex_${randomBytes(12).toString('hex')}`;
		const expiresAt = now + LIMITS.exportUrlTtlMs;
		const full: ExportJob = { ...job, id, expiresAt };
		this.jobs.set(id, full);
		const expires = String(Math.floor(expiresAt / 1000));
		return {
			job: full,
			pathAndQuery: `${PATHS.exportDownload(id)}?expires=${expires}&signature=${this.sign(id, expires)}`,
		};
	}

	/** Checks a download: the signature first (a tampered URL), then the expiry, then the export. */
	check(id: string, expires: string | null, signature: string | null, now: number): UrlCheck {
		if (!expires || !signature || !/^\d+$/.test(expires) || !/^[0-9a-f]{64}$/.test(signature)) {
			return { ok: false, reason: 'bad_signature' };
		}
		const expected = Buffer.from(this.sign(id, expires), 'hex');
		if (!timingSafeEqual(expected, Buffer.from(signature, 'hex')))
			return { ok: false, reason: 'bad_signature' };
		if (Number(expires) * 1000 <= now) return { ok: false, reason: 'expired' };
		const job = this.jobs.get(id);
		if (!job) return { ok: false, reason: 'not_found' };
		return { ok: true, job };
	}

	clear(): void {
		this.jobs.clear();
	}
}
