import type { SerializeFrom } from '@remix-run/node'
import type { SiteStockpile } from '#app/domain/annotations/stockpile-series.server.ts'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'

import { StockpileSeries } from './stockpile-chart.tsx'
import { volumeAxis } from './volume-axis.ts'

type Point = SerializeFrom<SiteStockpile>['points'][number]

const point = (day: number, figures: Pick<Point, 'cutM3' | 'fillM3' | 'netM3' | 'volumeM3'>): Point => ({
  projectId: day,
  projectName: `Survey ${day}`,
  fileId: day,
  surveyedAt: `2027-01-${String(day).padStart(2, '0')}T09:00:00.000Z`,
  base: 'edge-mean',
  baseElevationM: 100,
  ...figures,
})

function card(kind: 'stockpile' | 'pit', points: Point[]) {
  const stockpile = {
    id: 7,
    projectId: 3,
    title: 'Sand',
    color: '#ef4444',
    stockpileKind: kind,
    base: 'edge-mean',
    points,
    unmeasured: [],
  } as unknown as SerializeFrom<SiteStockpile>
  return renderToStaticMarkup(<StockpileSeries stockpile={stockpile} />)
}

const text = (html: string) => html.replace(/<[^>]+>/g, '|').replace(/\|+/g, '|')
const headers = (html: string) =>
  [...html.matchAll(/<th scope="col"[^>]*>([^<]*)</g)].map((m) => m[1]!.trim())
const tickLabels = (html: string) =>
  [...html.matchAll(/right-full[^>]*>([^<]*)</g)].map((m) => m[1]!.replace(/\s/g, ''))

describe('the stockpile card', () => {
  it('names each column once, for a pit as for a stockpile', () => {
    const figures = { cutM3: 1.6, fillM3: 0, netM3: 1.6, volumeM3: -1.6 }
    const pit = headers(card('pit', [point(1, figures)]))
    expect(pit).toEqual(['Survey date', 'Net pit volume (m³)', 'Cut (m³)', 'Fill (m³)', 'Base height (m)'])
    expect(new Set(pit).size).toBe(pit.length)
    expect(headers(card('stockpile', [point(1, { ...figures, volumeM3: 1.6 })]))[1]).toBe('Net volume (m³)')
  })

  it('shows the net volume: an empty survey with a little cut and fill shows 0', () => {
    const html = card('stockpile', [point(1, { cutM3: 0.8, fillM3: 0.8, netM3: 0, volumeM3: 0 })])
    const row = text(html.slice(html.indexOf('<tbody')))
    expect(row).toContain('|0,0|0,8|0,8|100|')
  })

  it('does not repeat a tick on a small series, and draws its words as 12 px HTML, not scaled SVG text', () => {
    const html = card('stockpile', [
      point(1, { cutM3: 0, fillM3: 0, netM3: 0, volumeM3: 0 }),
      point(20, { cutM3: 1.6, fillM3: 0, netM3: 1.6, volumeM3: 1.6 }),
    ])
    const ticks = tickLabels(html)
    expect(ticks).toEqual(['0', '0,5', '1', '1,5', '2'])
    expect(html).not.toContain('<text')
    expect(html).toContain('text-xs')
  })
})

describe('volumeAxis', () => {
  it('takes in zero and negative figures, with distinct labels', () => {
    expect(volumeAxis([0, 0]).ticks.map((t) => t.value)).toEqual([0, 0.5, 1])
    expect(volumeAxis([-3, 1]).ticks.map((t) => t.value)).toEqual([-3, -2, -1, 0, 1])
    expect(volumeAxis([-4188.8, 0]).ticks.map((t) => t.value)).toEqual([-6000, -4000, -2000, 0])
    expect(volumeAxis([0.04]).ticks.map((t) => [t.value, t.decimals])).toEqual([
      [0, 2],
      [0.01, 2],
      [0.02, 2],
      [0.03, 2],
      [0.04, 2],
    ])
    expect(volumeAxis([1234]).ticks.map((t) => t.value)).toEqual([0, 500, 1000, 1500])
  })
})
