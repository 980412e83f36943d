/**
 * Stockpile inventory in tonnes (issue 37): a stockpile note's material and density, its
 * tonnes (net volume × density) against the GDAL-built cone, and the project's inventory as
 * CSV and PDF (members only; others 404).
 */
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { getMaterials } from '#app/domain/annotations/materials.server.ts'
import { DEFAULT_MATERIALS } from '#app/domain/annotations/materials.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import * as notesRoute from '#app/routes/api.projects.$id.annotations.ts'
import * as csvRoute from '#app/routes/api.projects.$id.stockpiles[.]csv.ts'
import * as pdfRoute from '#app/routes/api.projects.$id.stockpiles[.]pdf.ts'
import * as dashboard from '#app/routes/dashboard.tsx'
import { auditLog } from '#db/schema.ts'
import { projectWithTeam, signedInUser, storeRasterDeliverable } from '#tests/factories.ts'
import { buildConeDsm, CONE_VOLUME_M3, type ConeDsm } from '#tests/helpers/dsm-fixtures.ts'
import { postNote, stockpileNote } from '#tests/helpers/notes.ts'
import { pdfText } from '#tests/helpers/pdf-text.ts'
import { callRoute, readJson } from '#tests/helpers/requests.ts'
import { desc } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'

type Note = {
  id: number
  material: string | null
  densityTPerM3: number | null
  measurement: { cutM3?: number; fillM3?: number; netM3?: number; tonnes?: number }
}

let dir: string
let cone: ConeDsm
let setting: Awaited<ReturnType<typeof projectWithTeam>>
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'kestrel-tonnes-'))
  cone = await buildConeDsm(dir, 32734)
  setting = await projectWithTeam({ status: 'completed', completedAt: new Date() })
  await storeRasterDeliverable(setting.project.id, cone.path, 'elevation', setting.admin.user.id)
}, 60_000)
afterAll(() => fs.rm(dir, { recursive: true, force: true }))

describe('a stockpile’s tonnes', () => {
  test('are its net volume × its density, the cone’s volume within the engine’s 2 %', async () => {
    const res = await postNote(
      setting.client.headers,
      setting.project.id,
      stockpileNote(cone.ring, 'Sand pile', { material: 'Sand', densityTPerM3: 1.6 }),
    )
    expect(res.status).toBe(201)
    const { annotation } = await readJson<{ annotation: Note }>(res)
    expect(annotation.material).toBe('Sand')
    expect(annotation.densityTPerM3).toBe(1.6)
    const { netM3, tonnes } = annotation.measurement
    expect(tonnes).toBe(netM3! * 1.6)
    expect(Math.abs(tonnes! - CONE_VOLUME_M3 * 1.6)).toBeLessThanOrEqual(CONE_VOLUME_M3 * 1.6 * 0.02)
  }, 60_000)

  test('a note that is no stockpile takes no material; a bad density is a clear 400', async () => {
    const polygon = { type: 'Polygon', coordinates: [cone.ring] }
    const plain = await postNote(setting.client.headers, setting.project.id, {
      kind: 'polygon',
      geometry: polygon,
      title: 'Yard',
      material: 'Sand',
    })
    expect(plain.status).toBe(400)
    expect(JSON.stringify(await plain.json())).toContain('Only a stockpile or a pit has a material')
    const bad = await postNote(setting.client.headers, setting.project.id, {
      kind: 'polygon',
      geometry: polygon,
      title: 'Heap',
      stockpileKind: 'stockpile',
      densityTPerM3: 0,
    })
    expect(bad.status).toBe(400)
    expect(JSON.stringify(await bad.json())).toContain('tonnes per cubic metre')
    const stranger = await signedInUser('client')
    expect(
      (
        await postNote(stranger.headers, setting.project.id, {
          kind: 'polygon',
          geometry: polygon,
          title: 'x',
        })
      ).status,
    ).toBe(404)
  }, 60_000)
})

describe('the project’s stockpile inventory', () => {
  const get = (route: typeof csvRoute, ext: string, headers: Record<string, string>) =>
    callRoute(route.loader, `/api/projects/${setting.project.id}/stockpiles.${ext}`, {
      headers,
      params: { id: String(setting.project.id) },
    })

  test('CSV: a line per stockpile and a total per material; PDF names the materials; strangers 404', async () => {
    const polygon = { type: 'Polygon', coordinates: [cone.ring] }
    for (const [title, material, densityTPerM3] of [
      ['=Sand two', 'Sand', 1.6],
      ['Gravel heap', 'Gravel', 1.7],
    ] as const) {
      const res = await postNote(setting.admin.headers, setting.project.id, {
        kind: 'polygon',
        geometry: polygon,
        title,
        stockpileKind: 'stockpile',
        material,
        densityTPerM3,
      })
      expect(res.status).toBe(201)
    }
    const notes = (
      await readJson<{ annotations: Note[] }>(
        await callRoute(notesRoute.loader, `/api/projects/${setting.project.id}/annotations`, {
          headers: setting.client.headers,
          params: { id: String(setting.project.id) },
        }),
      )
    ).annotations
    const net = notes.find((n) => n.material === 'Gravel')!.measurement.netM3!

    const res = await get(csvRoute, 'csv', setting.client.headers)
    expect(res.status).toBe(200)
    expect(res.headers.get('Content-Type')).toContain('text/csv')
    const records = csvRecords(await res.text())
    const piles = records.filter((r) => r.name !== 'Total')
    expect(piles.map((r) => [r.name, r.material, r.base])).toEqual([
      ['Sand pile', 'Sand', 'Edge mean'],
      ["'=Sand two", 'Sand', 'Edge mean'],
      ['Gravel heap', 'Gravel', 'Edge mean'],
    ])
    for (const r of piles) {
      expect(Number(r.volume_m3)).toBe(net)
      expect(Number(r.tonnes)).toBe(net * Number(r.density_t_per_m3))
      expect(r.survey_date).toMatch(/^\d{4}-\d{2}-\d{2}$/)
    }
    const totals = records.filter((r) => r.name === 'Total')
    expect(totals.map((t) => t.material)).toEqual(['Sand', 'Gravel'])
    expect(Number(totals[0]!.tonnes)).toBeCloseTo(2 * net * 1.6, 9)
    expect(Number(totals[0]!.volume_m3)).toBeCloseTo(2 * net, 9)
    expect(Number(totals[1]!.tonnes)).toBe(net * 1.7)
    expect(Math.abs(Number(totals[1]!.tonnes) - CONE_VOLUME_M3 * 1.7)).toBeLessThanOrEqual(
      CONE_VOLUME_M3 * 1.7 * 0.02,
    )

    const pdf = await get(pdfRoute, 'pdf', setting.client.headers)
    expect(pdf.status).toBe(200)
    const bytes = Buffer.from(await pdf.arrayBuffer())
    expect(bytes.subarray(0, 4).toString()).toBe('%PDF')
    const { PDFDocument } = await import('pdf-lib')
    expect((await PDFDocument.load(bytes)).getTitle()).toContain(setting.project.name)
    const text = await pdfText(new Uint8Array(bytes))
    expect(text).toContain('Sand')
    expect(text).toContain('Gravel')

    const stranger = await signedInUser('client')
    expect((await get(csvRoute, 'csv', stranger.headers)).status).toBe(404)
    expect((await get(pdfRoute, 'pdf', stranger.headers)).status).toBe(404)
  }, 60_000)
})

/** The CSV's lines as records by header (its cells hold no comma or quote). */
function csvRecords(csv: string) {
  const [header, ...lines] = csv
    .trim()
    .split('\n')
    .map((l) => l.split(','))
  return lines.map((cells) => Object.fromEntries(header!.map((h, i) => [h, cells[i] ?? ''])))
}

describe('the admin’s materials table', () => {
  const post = (headers: Record<string, string>, materials: string) =>
    callRoute(dashboard.action, '/admin', { headers, form: { intent: 'admin-save-materials', materials } })

  test('an admin saves it in Settings (audited); a bad line is refused with its number and nothing changes', async () => {
    const refused = await post(setting.admin.headers, 'Sand = 1.6\nGravel 1.7')
    expect(refused.status).toBe(400)
    expect((await readJson<{ materialsError: string }>(refused)).materialsError).toBe(
      'Line 2: write a material as “Name = density in t/m³”, e.g. “Sand = 1,6”.',
    )
    expect(getMaterials()).toEqual(DEFAULT_MATERIALS)
    const saved = await post(setting.admin.headers, 'Crushed stone 19 mm = 1,55\nSand = 1.6')
    expect(saved.status).toBe(302)
    expect(getMaterials()).toEqual([
      { name: 'Crushed stone 19 mm', densityTPerM3: 1.55 },
      { name: 'Sand', densityTPerM3: 1.6 },
    ])
    const audit = getDb().select().from(auditLog).orderBy(desc(auditLog.id)).get()!
    expect(audit).toMatchObject({ actorId: setting.admin.user.id, action: 'stockpile-materials.update' })
    // Not a client's to change.
    const byClient = await post(setting.client.headers, 'Sand = 9')
    expect(byClient.status).toBeGreaterThanOrEqual(300)
    expect(getMaterials()[1]).toEqual({ name: 'Sand', densityTPerM3: 1.6 })
  })

  test('a stockpile of a listed material without its own density weighs with the table’s', async () => {
    const res = await postNote(
      setting.client.headers,
      setting.project.id,
      stockpileNote(cone.ring, 'Stone', { material: 'crushed stone 19 MM' }),
    )
    expect(res.status).toBe(201)
    const { annotation } = await readJson<{ annotation: Note }>(res)
    expect(annotation.densityTPerM3).toBe(1.55)
    expect(annotation.measurement.tonnes).toBe(annotation.measurement.netM3! * 1.55)
    const unlisted = await postNote(
      setting.client.headers,
      setting.project.id,
      stockpileNote(cone.ring, 'Mystery', { material: 'Unobtainium' }),
    )
    const mystery = (await readJson<{ annotation: Note }>(unlisted)).annotation
    expect(mystery.densityTPerM3).toBeNull()
    expect(mystery.measurement.tonnes).toBeUndefined()
  }, 60_000)
})
