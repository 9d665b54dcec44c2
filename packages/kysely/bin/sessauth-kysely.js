#!/usr/bin/env node
// Committed so that installing the workspace links the bin before anything is built;
// the CLI itself is dist/cli.js, built from src/cli.ts.
import '../dist/cli.js';
