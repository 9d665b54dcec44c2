import { describeMatrixRow } from '../src/describe-matrix-row.js';

describeMatrixRow('koa');
