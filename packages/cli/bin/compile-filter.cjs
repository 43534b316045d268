#!/usr/bin/env node
require('../dist/compile-filter.cjs');
