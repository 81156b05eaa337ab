import { randomBytes } from 'node:crypto';

import { WEBHOOKS, webhookSignature } from '../../../../nodes/ContactData/shared/client/contract';
import {
	verifyDeliverySignature,
	type SignatureVerdict,
} from '../../../../nodes/ContactData/trigger/signature';

const secret = `whsec_${randomBytes(24).toString('base64')}`;
const otherSecret = `whsec_${randomBytes(24).toString('base64')}`;
const now = 1_800_000_000;
const id = 'evt_123';
const rawBody = Buffer.from('{"id":"evt_123","type":"job_change"}');

const reasonOf = (verdict: SignatureVerdict) => (verdict.valid ? 'valid' : verdict.reason);

function signed(overrides: Partial<Parameters<typeof verifyDeliverySignature>[1]> = {}) {
	return {
		id,
		timestamp: String(now),
		signature: webhookSignature(secret, id, now, rawBody),
		rawBody,
		...overrides,
	};
}

describe('verifyDeliverySignature', () => {
	it('accepts a delivery signed with the secret over the raw body', () => {
		expect(verifyDeliverySignature(secret, signed(), now)).toEqual({ valid: true });
	});

	it('accepts a matching entry among several space-separated ones (key rotation)', () => {
		const header = `v1,${randomBytes(32).toString('base64')} v2,abc ${webhookSignature(secret, id, now, rawBody)}`;
		expect(verifyDeliverySignature(secret, signed({ signature: header }), now)).toEqual({
			valid: true,
		});
	});

	it('refuses a signature made with another secret', () => {
		const forged = webhookSignature(otherSecret, id, now, rawBody);
		expect(verifyDeliverySignature(secret, signed({ signature: forged }), now)).toEqual({
			valid: false,
			reason: 'bad_signature',
		});
	});

	it('refuses a body changed after signing, even by one byte or re-serialised', () => {
		const changed = Buffer.from(rawBody.toString().replace('job_change', 'role_change'));
		const reserialised = Buffer.from(JSON.stringify(JSON.parse(rawBody.toString()), null, 1));
		for (const body of [changed, reserialised]) {
			expect(verifyDeliverySignature(secret, signed({ rawBody: body }), now).valid).toBe(false);
		}
	});

	it('refuses a signature whose id or timestamp was swapped', () => {
		expect(verifyDeliverySignature(secret, signed({ id: 'evt_other' }), now).valid).toBe(false);
		const later = String(now + 1);
		expect(verifyDeliverySignature(secret, signed({ timestamp: later }), now + 1).valid).toBe(
			false,
		);
	});

	it('refuses timestamps outside the tolerance either side, and accepts its edge', () => {
		const tolerance = WEBHOOKS.toleranceSeconds;
		expect(verifyDeliverySignature(secret, signed(), now + tolerance)).toEqual({ valid: true });
		expect(verifyDeliverySignature(secret, signed(), now - tolerance)).toEqual({ valid: true });
		expect(verifyDeliverySignature(secret, signed(), now + tolerance + 1)).toEqual({
			valid: false,
			reason: 'stale_timestamp',
		});
		expect(reasonOf(verifyDeliverySignature(secret, signed(), now - tolerance - 1))).toBe(
			'stale_timestamp',
		);
		expect(reasonOf(verifyDeliverySignature(secret, signed({ timestamp: '17e8' }), now))).toBe(
			'stale_timestamp',
		);
	});

	it('refuses missing headers, a missing body, unknown versions and a missing secret', () => {
		expect(reasonOf(verifyDeliverySignature(secret, signed({ signature: undefined }), now))).toBe(
			'missing_headers',
		);
		expect(reasonOf(verifyDeliverySignature(secret, signed({ id: undefined }), now))).toBe(
			'missing_headers',
		);
		expect(reasonOf(verifyDeliverySignature(secret, signed({ rawBody: undefined }), now))).toBe(
			'missing_headers',
		);
		const v2Only = webhookSignature(secret, id, now, rawBody).replace(/^v1,/, 'v2,');
		expect(reasonOf(verifyDeliverySignature(secret, signed({ signature: v2Only }), now))).toBe(
			'bad_signature',
		);
		expect(reasonOf(verifyDeliverySignature(secret, signed({ signature: 'v1,' }), now))).toBe(
			'bad_signature',
		);
		expect(reasonOf(verifyDeliverySignature(undefined, signed(), now))).toBe('missing_secret');
	});
});
