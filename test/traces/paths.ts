/** Paths of the shared traces (../shared/data relative to the repository) and a guard for their presence. */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';

export const DATA_DIR = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../../shared/data');
export const KTH = resolve(DATA_DIR, 'KTH-SP2-1996-2.1-cln.swf.gz');
export const HPC2N = resolve(DATA_DIR, 'HPC2N-2002-2.2-cln.swf.gz');
export const FB2010 = resolve(DATA_DIR, 'FB-2010_samples_24_times_1hr_0.tsv');
/** True when the three traces are present (they are in this checkout and in CI). */
export const HAVE_TRACES = [KTH, HPC2N, FB2010].every((p) => existsSync(p));
export const MISSING_REASON = `traces absent from ${DATA_DIR} (see ../shared/data/README.md)`;
