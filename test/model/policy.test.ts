import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  DISCIPLINES,
  DISCIPLINE_TABLE,
  SELECTIONS,
  SELECTION_TABLE,
  disciplineHelp,
  idleGridSettings,
  idlePrediction,
  idleSettings,
  settingApplies,
  policyName,
  selectionHelp,
  selectionFamilyName,
  selectionName,
  usesPrediction,
} from '../../src/model/index.ts';
import { meanFieldCapabilities, solveMeanField } from '../../src/meanfield/index.ts';
import { parseModel } from '../../src/model/index.ts';
import { InvalidModelError } from '../../src/errors.ts';
import { selectionLabel } from '../../src/compare/plan.ts';

const doc = readFileSync(new URL('../../docs/extending.md', import.meta.url), 'utf8');
const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

/** The backticked field names of the bullet list under "Its fields:" in a section of extending.md. */
function fieldsIn(section: string): string[] {
  const body = doc.split(/^## /m).find((s) => s.startsWith(section));
  if (!body) throw new Error(`no section ${section}`);
  return [...body.matchAll(/^\s+- `(\w+)`:/gm)].map((m) => m[1]);
}

/** The `a | b | c` list after `label` in the README's "Choices" paragraph. */
function readmeChoices(label: string): string[] {
  const choices = readme.slice(readme.indexOf('Choices'));
  const m = new RegExp(`${label} \`([^\`]+)\``).exec(choices.replace(/\n/g, ' '));
  if (!m) throw new Error(`no ${label} list in README Choices`);
  return m[1].split('|').map((s) => s.trim());
}

describe('the policy tables (model/policy)', () => {
  it('SELECTIONS and DISCIPLINES are the tables’ rows in order; usesPrediction reads the rows', () => {
    expect(SELECTIONS).toEqual(Object.keys(SELECTION_TABLE));
    expect(DISCIPLINES).toEqual(Object.keys(DISCIPLINE_TABLE));
    expect(SELECTIONS).toEqual(['random', 'jsq', 'sed', 'lwl', 'lpw', 'jiq']);
    expect(DISCIPLINES).toEqual(['fifo', 'sjf', 'psjf', 'srpt', 'spjf', 'pspjf', 'sprpt', 'ps', 'las']);
    const predicted = SELECTIONS.flatMap((s) => DISCIPLINES.filter((d) => usesPrediction(s, d)).map((d) => `${s}+${d}`));
    expect(predicted.filter((p) => p.startsWith('jsq'))).toEqual(['jsq+spjf', 'jsq+pspjf', 'jsq+sprpt']);
    expect(predicted.filter((p) => p.startsWith('lpw'))).toHaveLength(DISCIPLINES.length);
  });

  it('the seed paper’s seven disciplines are priority servers with the rank keys of theory.md §1; PS and LAS share', () => {
    const ranks = Object.fromEntries(
      DISCIPLINES.map((d) => [d, [DISCIPLINE_TABLE[d].server, DISCIPLINE_TABLE[d].rank, DISCIPLINE_TABLE[d].preemptive]]),
    );
    expect(ranks).toEqual({
      fifo: ['priority', 'arrival', false],
      sjf: ['priority', 'size', false],
      psjf: ['priority', 'size', true],
      srpt: ['priority', 'remaining size', true],
      spjf: ['priority', 'predicted size', false],
      pspjf: ['priority', 'predicted size', true],
      sprpt: ['priority', 'predicted remaining', true],
      ps: ['sharing', undefined, true],
      las: ['attained-service', undefined, true],
    });
  });

  it('policyName names a batch of K > 1 and its dispatch (headers of fixed-point and simulate), not K = 1', () => {
    const jsq = parseModel({ lambda: 0.6, d: 2 });
    expect(policyName(jsq)).toBe('JSQ(2) + FIFO');
    expect(policyName(parseModel({ lambda: 0.6, d: 2, batch: 2 }))).toBe('JSQ(2) + FIFO, batch 2 (spread)');
    expect(policyName(parseModel({ lambda: 0.6, d: 2, batch: 2, batchDispatch: 'whole' }))).toBe('JSQ(2) + FIFO, batch 2 (whole)');
  });

  it('selectionName and policyName call a sampling rule at d = 1 random (fixed-point --d 1 said "JSQ(1)"), not with a memory', () => {
    for (const selection of SELECTIONS.filter((s) => SELECTION_TABLE[s].samplesD && s !== 'sed')) {
      expect(policyName(parseModel({ lambda: 0.6, d: 1, selection }))).toBe('RANDOM (d = 1) + FIFO');
      expect(selectionLabel(parseModel({ lambda: 0.6, d: 1, selection }))).toBe('RANDOM (d = 1)');
      expect(selectionLabel(parseModel({ lambda: 0.6, d: 1, selection }), 'd')).toBe(`${selection.toUpperCase()}(d)`);
    }
    // random selection is the same policy, spelt once (it said "RANDOM + FIFO" beside "RANDOM (d = 1) + FIFO")
    expect(policyName(parseModel({ lambda: 0.6, d: 1, selection: 'random' }))).toBe('RANDOM (d = 1) + FIFO');
    expect(selectionFamilyName({ selection: 'random', d: 1 }, [1])).toBe(selectionFamilyName({ selection: 'lwl', d: 1 }, [1]));
    expect(selectionName({ selection: 'jsq', d: 2 })).toBe('JSQ(2)');
    // ISM at d = 1: the memory chooses, so the rule keeps its name
    expect(policyName(parseModel({ lambda: 0.6, d: 1, memory: 'ism:5' }))).toBe('JSQ(1) + FIFO, memory ism:5');
  });

  it('idlePrediction refuses a prediction exactly where neither row reads one', () => {
    expect(idlePrediction('jsq', 'fifo')).toMatch(/neither selection jsq nor discipline fifo reads a prediction/);
    expect(idlePrediction('lpw', 'fifo')).toBeUndefined();
    expect(idlePrediction('jsq', 'sprpt')).toBeUndefined();
  });

  it('a prediction acts on LPW only where it compares d ≥ 2 servers; at d = 1 only a discipline that reads one uses it', () => {
    expect(settingApplies('prediction', { selection: 'lpw', discipline: 'fifo', d: 2 })).toBe(true);
    expect(settingApplies('prediction', { selection: 'lpw', discipline: 'fifo', d: 1 })).toBe(false);
    expect(settingApplies('prediction', { selection: 'lpw', discipline: 'sprpt', d: 1 })).toBe(true);
    expect(idleSettings({ selection: 'lpw', discipline: 'fifo', d: 1 }, ['prediction'])[0]?.reason).toMatch(
      /^selection lpw at d = 1 samples one server \(random routing\)/,
    );
    // a grid file: idle only when no d of the grid lets it act
    expect(idleGridSettings([{ selection: 'lpw', discipline: 'fifo' }], [1, 2], ['prediction'])).toEqual([]);
    expect(idleGridSettings([{ selection: 'lpw', discipline: 'fifo' }], [1], ['prediction'])).toHaveLength(1);
  });
});

describe('docs/extending.md, --help and the README agree with the tables', () => {
  it('the fields the doc lists are the rows’ fields, and every value it names exists', () => {
    expect(fieldsIn('A new selection rule').sort()).toEqual(Object.keys(SELECTION_TABLE.jsq).sort());
    expect(fieldsIn('A new discipline').sort()).toEqual(Object.keys(DISCIPLINE_TABLE.fifo).sort());
    for (const s of SELECTIONS) expect(doc).toContain(`\`${SELECTION_TABLE[s].stateRead}\``);
    for (const d of DISCIPLINES) {
      expect(doc).toContain(`\`${DISCIPLINE_TABLE[d].server}\``);
      expect(doc).toContain(`\`${DISCIPLINE_TABLE[d].rank}\``);
    }
  });

  it('every file the doc names exists', () => {
    const files = new Set([...doc.matchAll(/`((?:src|test)\/[\w/.-]+\.ts)`/g)].map((m) => m[1]));
    expect(files.size).toBeGreaterThan(10);
    for (const f of files) expect(() => readFileSync(new URL(`../../${f}`, import.meta.url)), f).not.toThrow();
  });

  it('--help prose and the README’s "Choices" list every row and nothing else', () => {
    for (const s of SELECTIONS) expect(selectionHelp()).toContain(`${s} = ${SELECTION_TABLE[s].description}`);
    for (const d of DISCIPLINES) expect(disciplineHelp()).toContain(`${d} = ${DISCIPLINE_TABLE[d].description}`);
    expect(readmeChoices('selection')).toEqual([...SELECTIONS]);
    expect(readmeChoices('discipline')).toEqual([...DISCIPLINES]);
  });
});

describe('meanFieldCapabilities', () => {
  it('names the solver solveMeanField uses, or the reason it throws', () => {
    const sqd = parseModel({ lambda: 0.9, d: 2 });
    const caps = meanFieldCapabilities(sqd);
    expect(caps.fixedPoint).toMatchObject({ available: true, id: 'sqd-closed-form', kind: 'exact' });
    expect(caps.transient).toMatchObject({ available: true, id: 'sqd-ode' });
    expect(caps.refined.firstOrder.available && caps.refined.secondOrder.available && caps.exactChain.available).toBe(true);
    expect(solveMeanField(sqd).solver).toBe(caps.fixedPoint.available ? caps.fixedPoint.name : '');
    expect(meanFieldCapabilities(parseModel({ lambda: 0.9, d: 2, selection: 'lpw', prediction: 'uniform:0.5' })).fixedPoint).toMatchObject({
      id: 'lpw-cavity',
      kind: 'estimate',
    });
    // LPW with exact predictions reads the true work left: LWL(d)'s exact solvers answer it (lpwAsLwl)
    expect(meanFieldCapabilities(parseModel({ lambda: 0.9, d: 2, selection: 'lpw' })).fixedPoint).toMatchObject({
      id: 'lwl-closed-form',
      kind: 'exact',
    });
    // d = 1 with psjfPreemption 'remaining': no solver, and solveMeanField throws the capability's reason
    const d1 = parseModel({ lambda: 0.9, d: 1, selection: 'random', discipline: 'psjf', conventions: { psjfPreemption: 'remaining' } });
    const none = meanFieldCapabilities(d1).fixedPoint;
    expect(none.available).toBe(false);
    expect(() => solveMeanField(d1)).toThrow(InvalidModelError);
    expect(() => solveMeanField(d1)).toThrow(none.available ? '' : none.reason);
    const lwlSrpt = meanFieldCapabilities(parseModel({ lambda: 0.9, d: 2, selection: 'lwl', discipline: 'srpt' }));
    expect(lwlSrpt.fixedPoint).toMatchObject({ id: 'lwl-cavity', kind: 'estimate' });
    expect(lwlSrpt.transient).toMatchObject({ id: 'lwl-pide' });
    expect(lwlSrpt.refined.firstOrder.available || lwlSrpt.exactChain.available).toBe(false);
    // sizes that are not phase-type: the JSQ cavity (estimate, CI) by default, the two-moment fit only on request
    const weibull = meanFieldCapabilities(parseModel({ lambda: 0.9, d: 2, service: 'weibull:0.5' }));
    expect(weibull.fixedPoint).toMatchObject({ id: 'jsq-cavity', kind: 'estimate' });
    expect(weibull.phaseTypeFit).toMatchObject({ id: 'phase-type-ode', kind: 'approximation', measuredError: { low: -0.18 } });
    expect(weibull.phaseTypeFit.available && weibull.phaseTypeFit.source).toMatch(/measured error .* weibull sizes: −18 % to \+0 %/);
    expect(weibull.transient).toMatchObject({ id: 'phase-type-ode', kind: 'approximation' });
    expect(weibull.transient.available && weibull.transient.source).toMatch(/measured error/);
    expect(meanFieldCapabilities(parseModel({ lambda: 0.9, d: 2, service: 'erlang:2' })).phaseTypeFit.available).toBe(false);
  });

  // compare --selection random --d 1 said "no refined term … not RANDOM(d) + FIFO": a name no other output uses (random
  // samples no servers, `selectionName` writes RANDOM). Every capability reason names the rule by `selectionName`.
  it('names the selection rule in its reasons by selectionName, not a hand-made "RULE(d)"', () => {
    const random = meanFieldCapabilities(
      parseModel({ lambda: 0.9, d: 1, selection: 'random', discipline: 'srpt', service: 'weibull:0.5' }),
    );
    const jiq = meanFieldCapabilities(parseModel({ lambda: 0.9, d: 1, selection: 'jiq', discipline: 'srpt', service: 'weibull:0.5' }));
    const reasons = [random, jiq].flatMap((c) =>
      [c.refined.firstOrder, c.transient, c.exactChain, c.phaseTypeFit].map((x) => (x.available ? '' : x.reason)),
    );
    for (const r of reasons) expect(r).not.toMatch(/\b(RANDOM|JIQ)\(d\)/);
    expect(reasons.join('\n')).toMatch(/not RANDOM \(d = 1\) \+ SRPT with weibull sizes/);
    expect(reasons.join('\n')).toMatch(/not JIQ \+ SRPT with weibull sizes/);
  });
});
