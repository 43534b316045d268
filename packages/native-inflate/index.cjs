'use strict';
// The addon that install.cjs built, or undefined with the reason it is not there: the caller (logfilter eval)
// then inflates with Node's zlib, which is slower but always present.
let binding;
let reason;
try {
  binding = require('./build/Release/isal_inflate.node');
} catch (e) {
  reason = e && e.code === 'MODULE_NOT_FOUND' ? 'not built at install (ISA-L headers missing?)' : `failed to load: ${e && e.message}`;
}
module.exports = { binding, reason };
