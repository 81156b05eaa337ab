/** How an answer's enum is read: the API adds values without a version bump. */
import { z } from 'zod';

/** An enum in an answer: one of `values`, or a value added since, passed through as it came. */
export function openEnum<T extends readonly [string, ...string[]]>(values: T) {
	return z.union([z.enum(values), z.string()]) as unknown as z.ZodType<
		T[number] | (string & {}),
		z.ZodTypeDef,
		unknown
	>;
}
