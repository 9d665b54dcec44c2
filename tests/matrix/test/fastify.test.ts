import { describeMatrixRow } from '../src/describe-matrix-row.js';

describeMatrixRow('fastify');
