/**
 * The dispatcher's memory of idle servers in the finite system (theory.md §12; T. Hellemans, PhD thesis, Univ.
 * Antwerp 2021, ch. 6; its simulators simul_main_SQd.m / simul_main_LLd.m): a FIFO ring of server ids with a
 * membership flag per server, so an id is held at most once. Every held server is idle: a job goes to a held id
 * whenever there is one, and ids enter only when their server is idle.
 * - IP: when the memory is empty the arrival probes d servers, joins one by the rule (SQ(d): fewest jobs; LL(d):
 *   least work), and the other idle probed servers are stored; no probes while ids are held.
 * - CP / BCP: as IP, and an arrival that takes a held id still probes d servers and stores the idle ones found
 *   (CP unbounded, i.e. up to n; BCP up to A).
 * - ISM: a server that becomes idle is stored if fewer than A ids are held (classic JIQ: A = n); the engine calls
 *   `offer` on each departure that empties a server.
 * Typed arrays, no allocation per event. The counters (arrivals, arrivals that found the memory empty, probes) run
 * while `counting` is set (the measurement window), for the observed π₀ and probes per arrival.
 */
import { InvalidModelError } from '../errors.ts';
import type { EffectiveMemory } from '../model/memory.ts';
import type { Rng } from '../stats/rng.ts';
import { fisherYatesStep } from './selection/jsqd.ts';

/** Memory scheme codes of `RunConfig.memoryKind`. */
export const [MEM_NONE, MEM_IP, MEM_CP, MEM_ISM] = [0, 1, 2, 3];

/** The RunConfig fields of a memory: scheme code (BCP runs as CP with a bound) and capacity (ids, ≤ n). */
export function memoryCode(memory: EffectiveMemory, n: number): { memoryKind: number; memoryCapacity: number } {
  switch (memory.kind) {
    case 'none':
      return { memoryKind: MEM_NONE, memoryCapacity: 0 };
    case 'ip':
      return { memoryKind: MEM_IP, memoryCapacity: Math.min(n, memory.capacity) };
    case 'cp':
    case 'bcp':
      return { memoryKind: MEM_CP, memoryCapacity: Math.min(n, memory.capacity) };
    case 'ism':
      return { memoryKind: MEM_ISM, memoryCapacity: Math.min(n, memory.capacity) };
    default:
      throw new InvalidModelError(`unknown memory kind ${JSON.stringify((memory as { kind: unknown }).kind)}`);
  }
}

export class DispatcherMemory {
  /** Held ids, a ring of `capacity` slots from `head`. */
  readonly ids: Int32Array;
  /** 1 while server j is held. */
  readonly held: Uint8Array;
  /** The d probed servers of the last probing arrival. */
  readonly probe: Int32Array;
  head = 0;
  size = 0;
  /** Counters while `counting`: arrivals, arrivals that found the memory empty, probes sent. */
  counting = false;
  arrivals = 0;
  emptyArrivals = 0;
  probes = 0;

  /**
   * @param kind MEM_* code. @param capacity ids held at most (≥ 1 unless kind is MEM_NONE). @param n servers.
   * @param d probes per probing arrival. @param selectLeastWork LL(d) (least work) instead of SQ(d) (fewest jobs).
   */
  constructor(
    readonly kind: number,
    readonly capacity: number,
    readonly n: number,
    readonly d: number,
    readonly selectLeastWork: boolean,
  ) {
    this.ids = new Int32Array(Math.max(1, capacity));
    this.held = new Uint8Array(kind === MEM_NONE ? 0 : n);
    this.probe = new Int32Array(Math.max(1, d));
  }

  /** Stores server j if not held and there is room. */
  offer(j: number): void {
    if (this.held[j] === 1 || this.size >= this.capacity) return;
    let slot = this.head + this.size;
    if (slot >= this.capacity) slot -= this.capacity;
    this.ids[slot] = j;
    this.held[j] = 1;
    this.size++;
  }

  /** Removes and returns the oldest held id (size > 0). */
  take(): number {
    const j = this.ids[this.head];
    this.head = this.head + 1 === this.capacity ? 0 : this.head + 1;
    this.size--;
    this.held[j] = 0;
    return j;
  }

  /** ISM: the memory starts with the idle servers (in random order, up to its capacity); probing memories start empty. */
  fillIdle(len: Int32Array, rng: Rng): void {
    if (this.kind !== MEM_ISM) return;
    const order = new Int32Array(this.n);
    for (let i = 0; i < this.n; i++) order[i] = i;
    for (let k = 0; k < this.n && this.size < this.capacity; k++) {
      const j = fisherYatesStep(rng, this.n, k, order);
      if (len[j] === 0) this.offer(j);
    }
  }

  /** Samples d servers into `probe` (with or without replacement; `perm` is the engine's scratch permutation). */
  private sample(rng: Rng, without: boolean, perm: Int32Array): void {
    const { n, d, probe } = this;
    for (let k = 0; k < d; k++) probe[k] = without ? fisherYatesStep(rng, n, k, perm) : rng.below(n);
    if (this.counting) this.probes += d;
  }

  /** Stores the idle probed servers other than `chosen`. */
  private keepIdle(len: Int32Array, chosen: number): void {
    const probe = this.probe;
    for (let k = 0; k < this.d; k++) {
      const j = probe[k];
      if (j !== chosen && len[j] === 0) this.offer(j);
    }
  }

  /**
   * The server an arrival joins: a held id if any (CP/BCP then probe d servers and store the idle ones), else the
   * rule on d probed servers (first minimiser in draw order, as jsqd.ts and leastWork.ts; JIQ: d = 1, a random
   * server), storing the other idle probed servers (IP, CP, BCP).
   * @param len queue lengths. @param finish F_j per server (LL(d): work left (F_j − t)^+). @param t now.
   */
  select(rng: Rng, len: Int32Array, finish: Float64Array, t: number, without: boolean, perm: Int32Array): number {
    if (this.counting) this.arrivals++;
    if (this.size > 0) {
      const j = this.take();
      if (this.kind === MEM_CP) {
        this.sample(rng, without, perm);
        this.keepIdle(len, j);
      }
      return j;
    }
    if (this.counting) this.emptyArrivals++;
    this.sample(rng, without, perm);
    const probe = this.probe;
    let best = probe[0];
    if (this.selectLeastWork) {
      let bestF = finish[best] > t ? finish[best] : t;
      for (let k = 1; k < this.d; k++) {
        const j = probe[k];
        const f = finish[j] > t ? finish[j] : t;
        if (f < bestF) {
          best = j;
          bestF = f;
        }
      }
    } else {
      let bestLen = len[best];
      for (let k = 1; k < this.d; k++) {
        const j = probe[k];
        if (len[j] < bestLen) {
          best = j;
          bestLen = len[j];
        }
      }
    }
    if (this.kind !== MEM_ISM) this.keepIdle(len, best);
    return best;
  }

  /** Starts the counters (the measurement window opens). */
  startCounting(): void {
    this.counting = true;
    this.arrivals = 0;
    this.emptyArrivals = 0;
    this.probes = 0;
  }
}

/** What a run's memory observed in its measurement window. */
export interface MemoryObservation {
  /** Arrivals counted. */
  readonly arrivals: number;
  /** Fraction of them that found the memory empty (the observed π₀). */
  readonly emptyFraction: number;
  /** Probes per arrival (d per probing arrival; ISM messages not counted). */
  readonly probesPerArrival: number;
}

/** The observation of a memory, or undefined without memory. */
export function observeMemory(memory: DispatcherMemory | undefined): MemoryObservation | undefined {
  if (memory === undefined || memory.kind === MEM_NONE || memory.arrivals === 0) return undefined;
  return {
    arrivals: memory.arrivals,
    emptyFraction: memory.emptyArrivals / memory.arrivals,
    probesPerArrival: memory.probes / memory.arrivals,
  };
}
