/**
 * Contact ids: the index in the data set mixed with the seed by an invertible function, written in
 * base 36, so ids look opaque, differ per seed and decode back to the index without a table.
 */

const MIX_A = 0x9e3779b1;
const MIX_B = 0x85ebca77;
export const ID_LENGTH = 7;

function modInverse32(odd: number): number {
	let inverse = odd;
	for (let i = 0; i < 5; i++) inverse = Math.imul(inverse, 2 - Math.imul(odd, inverse));
	return inverse >>> 0;
}
const MIX_A_INVERSE = modInverse32(MIX_A);
const MIX_B_INVERSE = modInverse32(MIX_B);

function unshiftRight(value: number, shift: number): number {
	let result = value;
	for (let i = 0; i < 32; i += shift) result = value ^ (result >>> shift);
	return result >>> 0;
}

export function mixIndex(index: number, key: number): number {
	let x = (index ^ key) >>> 0;
	x = Math.imul(x, MIX_A) >>> 0;
	x = (x ^ (x >>> 16)) >>> 0;
	x = Math.imul(x, MIX_B) >>> 0;
	x = (x ^ (x >>> 13)) >>> 0;
	return x;
}

export function unmixIndex(value: number, key: number): number {
	let x = unshiftRight(value, 13);
	x = Math.imul(x, MIX_B_INVERSE) >>> 0;
	x = unshiftRight(x, 16);
	x = Math.imul(x, MIX_A_INVERSE) >>> 0;
	return (x ^ key) >>> 0;
}
