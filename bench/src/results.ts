import type { MachineInfo } from './report/machine-info.js';
import type { Sample } from './run-matrix.js';
import type { Spread } from './stats.js';
import type { Comparison, VariantSummary } from './summarize.js';

/** One row of the other operations (item 2): a rate or a ratio, with its target when the issue set one. */
export interface OperationRow {
  readonly operation: string;
  readonly store: string;
  /** What `value` counts: `ops/s`, `x` (a ratio), `µs` (CPU time per call). */
  readonly unit: 'ops/s' | 'x' | 'µs';
  readonly value: Spread;
  /** `>= 5000`, `<= 1.3`; absent when the issue set none. */
  readonly target: string | undefined;
  readonly met: boolean | undefined;
  readonly detail: string;
}

export interface BenchResults {
  readonly machine: MachineInfo;
  readonly loadAverageAtEnd: readonly number[];
  readonly packages: Record<string, string>;
  readonly servers: Record<string, string>;
  readonly settings: {
    readonly generator: string;
    readonly rounds: number;
    readonly durationSeconds: number;
    readonly warmupSeconds: number;
    readonly connections: number;
    /** The second saturated load's connections (0: none; absent in older results). */
    readonly highConnections?: number;
    /** The paced load's fraction of jose-only's saturated rate (0: none; absent in older results). */
    readonly pacedFraction?: number;
    readonly seededSessions: number;
    readonly command: string;
  };
  readonly guard: {
    readonly samples: readonly Sample[];
    readonly summaries: readonly VariantSummary[];
    readonly comparisons: readonly Comparison[];
  };
  readonly operations: readonly OperationRow[];
  /** Anything a reader must know about how this particular run went. */
  readonly notes?: readonly string[];
}

export function judge(value: number, target: { min?: number; max?: number }): { target: string; met: boolean } {
  if (target.min !== undefined) return { target: `>= ${target.min}`, met: value >= target.min };
  return { target: `<= ${target.max}`, met: value <= target.max! };
}
