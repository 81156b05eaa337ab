// Preloaded into n8n (NODE_OPTIONS=--require) by the end-to-end check: appends every DNS lookup of a
// non-loopback host name to $DNS_LOG_FILE, so the check can prove n8n made no outside call.
'use strict';
const dns = require('node:dns');
const fs = require('node:fs');

const logFile = process.env.DNS_LOG_FILE;
const isLoopback = (host) =>
	!host || host === 'localhost' || host === '::1' || host === '0.0.0.0' || /^127\./.test(host);
const record = (host) => {
	if (logFile && !isLoopback(host)) fs.appendFileSync(logFile, `${process.pid} ${host}\n`);
};

const lookup = dns.lookup;
dns.lookup = function (host, ...rest) {
	record(host);
	return lookup.call(this, host, ...rest);
};
const lookupPromise = dns.promises.lookup;
dns.promises.lookup = function (host, ...rest) {
	record(host);
	return lookupPromise.call(this, host, ...rest);
};
