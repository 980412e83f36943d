import { expect, test } from 'vitest'

import { journeyTimes, overBudget, unitTimes } from './test-timings.ts'

test('journeys: one per project, their attempts added up, slowest first, describe titles kept', () => {
  const report = {
    suites: [
      {
        title: 'landing.spec.ts',
        specs: [
          {
            title: 'the landing page',
            file: 'landing.spec.ts',
            line: 5,
            tests: [
              { projectName: 'js', results: [{ duration: 2_000 }] },
              { projectName: 'no-js', results: [{ duration: 61_000 }, { duration: 4_000 }] },
            ],
          },
        ],
        suites: [
          {
            title: 'pricing API',
            specs: [
              {
                title: 'a quote',
                file: 'landing.spec.ts',
                line: 22,
                tests: [{ projectName: 'js', results: [{ duration: 500 }] }],
              },
            ],
          },
        ],
      },
    ],
  }
  expect(journeyTimes(report)).toEqual([
    { name: '[no-js] landing.spec.ts:5 › the landing page', seconds: 65 },
    { name: '[js] landing.spec.ts:5 › the landing page', seconds: 2 },
    { name: '[js] landing.spec.ts:22 › pricing API › a quote', seconds: 0.5 },
  ])
  expect(journeyTimes(null)).toEqual([])
})

test('unit tests: each file from start to end, each test, paths from the root', () => {
  const { files, tests } = unitTimes(
    {
      testResults: [
        {
          name: '/repo/app/a.test.ts',
          startTime: 1_000,
          endTime: 8_500,
          assertionResults: [
            { fullName: 'a slow one', duration: 6_000 },
            { fullName: 'a quick one', duration: 20 },
            { fullName: 'skipped', duration: null },
          ],
        },
      ],
    },
    '/repo',
  )
  expect(files).toEqual([{ name: 'app/a.test.ts', seconds: 7.5 }])
  expect(tests.map((t) => t.name)).toEqual([
    'app/a.test.ts › a slow one',
    'app/a.test.ts › a quick one',
    'app/a.test.ts › skipped',
  ])
})

test('over budget: unit tests over 5 s and journeys over 60 s are named, the rest not', () => {
  expect(
    overBudget(
      [
        { name: 'app/a.test.ts › slow', seconds: 5.2 },
        { name: 'app/a.test.ts › at the limit', seconds: 5 },
      ],
      [
        { name: '[js] a.spec.ts:1 › long', seconds: 75 },
        { name: '[js] a.spec.ts:9 › short', seconds: 59.9 },
      ],
    ),
  ).toEqual([
    'unit test over 5 s: 5.2 s app/a.test.ts › slow',
    'journey over 60 s: 75.0 s [js] a.spec.ts:1 › long',
  ])
})
