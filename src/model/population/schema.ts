/**
 * The JSON shape of a population-model file (models/README.md), validated with zod before any expansion, so a
 * misspelt key or a wrong type is reported with its JSON path. Meaning (templates, names, expressions) is checked
 * afterwards by `parsePopulationModel`.
 */
import type { z as Zod } from 'zod';
import { onFirstTouch, z } from '../../lazy.ts';
import { parseWithSchema } from '../schema.ts';

/** A bound of a generator or loop: an integer, or an expression over the parameters such as "K" or "K+1". */
const bound = onFirstTouch(() => z.union([z.number().int(), z.string().min(1)]));

/** `{ "vector": "s", "from": 1, "to": "K" }`: the variables s1, s2, …, sK. */
const vectorGenerator = onFirstTouch(() => z.object({ vector: z.string().min(1), from: bound, to: bound }).strict());

const variablesEntry = onFirstTouch(() => z.union([z.string().min(1), vectorGenerator]));

const transition = onFirstTouch(() =>
  z
    .object({
      /** Optional label used in messages. */
      name: z.string().optional(),
      /** Loop variable: the transition is repeated for each integer from..to (inclusive), with {…} templates. */
      for: z
        .string()
        .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'loop variable must be an identifier')
        .optional(),
      from: bound.optional(),
      to: bound.optional(),
      /** Jump ℓ (per 1/n): variable name (may be templated, "s{i}") → change, a finite non-zero number. */
      change: z.record(z.string().min(1), z.number().refine(Number.isFinite, 'must be finite')),
      /** Rate β_ℓ(x) per n, a mathjs expression (templates {…} allowed). */
      rate: z.string().min(1),
    })
    .strict()
    .refine((t) => t.for === undefined || (t.from !== undefined && t.to !== undefined), {
      message: '"for" needs "from" and "to"',
    })
    .refine((t) => t.for !== undefined || (t.from === undefined && t.to === undefined), {
      message: '"from"/"to" need "for"',
    }),
);

/** An observable: an expression, or a templated sum { "for": "i", "from": 1, "to": "K", "sum": "i*(s{i}-s{i+1})" }. */
const observable = onFirstTouch(() =>
  z.union([
    z.string().min(1),
    z.object({ for: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/), from: bound, to: bound, sum: z.string().min(1) }).strict(),
  ]),
);

export const populationModelSchema = onFirstTouch(() =>
  z
    .object({
      name: z.string().min(1),
      description: z.string().optional(),
      source: z.string().optional(),
      parameters: z.record(z.string(), z.number().refine(Number.isFinite, 'must be finite')).default({}),
      constants: z.record(z.string(), z.union([z.number().refine(Number.isFinite, 'must be finite'), z.string().min(1)])).default({}),
      variables: z.union([z.array(variablesEntry).min(1), vectorGenerator]),
      transitions: z.array(transition).min(1),
      initial: z.record(z.string(), z.union([z.number().refine(Number.isFinite, 'must be finite'), z.string().min(1)])).optional(),
      observables: z.record(z.string(), observable).default({}),
    })
    .strict(),
);

export type PopulationModelFile = Zod.infer<typeof populationModelSchema>;

/**
 * Checks the JSON shape of a model file.
 * @param json the parsed JSON value. @param label file name (or "model") used in messages.
 * @throws {InvalidModelError} listing every problem as `label: path: message` (at most 10).
 */
export function checkPopulationModelShape(json: unknown, label: string): PopulationModelFile {
  return parseWithSchema(populationModelSchema, json, label);
}
