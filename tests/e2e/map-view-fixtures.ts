/**
 * A completed project with two ready raster deliverables for the Map view journeys: an RGB
 * orthomosaic in Lo19 and a cone DSM in UTM 34S, built with GDAL, their viewing COGs in
 * those CRSs (the map reprojects them) and previews written where the viewing-copy job puts them, rows as the job
 * leaves them; and how a journey sees the orthomosaic's pixels on the map.
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { expect, type Page } from '@playwright/test'
import { makeReducedCopy, reducedCopyName } from '#app/domain/deliverables/view-copies.server.ts'
import Database from 'better-sqlite3'

import {
  buildConeDsm,
  buildOrthomosaic,
  buildPreview,
  buildViewingCog,
  rasterFacts,
  type ConeDsm,
} from '../helpers/dsm-fixtures.ts'
import { e2eDir } from '../setup/e2e-env.ts'
import { seedPaidProject } from './admin-fixtures.ts'
import { builtOncePerRun, DEMO_PASSWORD, signIn } from './fixtures.ts'

/** The orthomosaic and cone DSM with their viewing copies, built once per run for all workers (GDAL takes some seconds for the 4096 px orthomosaic). */
export function builtRasters() {
  return builtOncePerRun('map-rasters', build)
}

async function build(dir: string) {
  const ortho = await buildOrthomosaic(dir, 2048, 4096, 'site-orthomosaic.tif')
  const cone: ConeDsm = await buildConeDsm(dir, 32734, 'site-dsm.tif')
  const items = []
  for (const [file, kind] of [
    [ortho, 'orthomosaic'],
    [cone.path, 'elevation'],
  ] as const) {
    const cog = await buildViewingCog(file, `${file}.cog.tif`, kind)
    const preview = await buildPreview(file, `${file}.preview.png`)
    items.push({
      file,
      kind,
      cog,
      preview,
      reduced: await buildReducedCopy(cog, kind),
      facts: await rasterFacts(file),
    })
  }
  return { items, cone }
}

/** The view-only links' copy of a viewing COG, made as the viewing-copy job makes it. */
async function buildReducedCopy(cog: string, kind: 'orthomosaic' | 'elevation') {
  const facts = await rasterFacts(cog)
  return makeReducedCopy({
    cog,
    out: reducedCopyName(cog),
    size: { width: facts.widthPx, height: facts.heightPx },
    kind: kind === 'elevation' ? 'elevation' : 'imagery',
    range: { min: null, max: null },
    step: { owner: 'conversion', timeoutMs: 120_000 },
    imageryCompression: 'JPEG',
  })
}

function sha256Of(file: string) {
  return crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex')
}

export type BuiltRaster = Omit<Awaited<ReturnType<typeof build>>['items'][number], 'reduced'> & {
  /** The height range the viewing-copy job would record (elevation models). */
  range?: [number, number]
  /** The view-only links' copy (without it a view-only link does not map the raster). */
  reduced?: string
}

export async function seedMapProject(name: string) {
  const { items, cone } = await builtRasters()
  const { projectId, clientEmail } = seedPaidProject(name)
  const fileIds = storeReadyRasters(projectId, items)
  return {
    projectId,
    clientEmail,
    orthomosaicId: fileIds.orthomosaic!,
    elevationId: fileIds.elevation!,
    cone,
  }
}

/** A new seeded project's Map view (`name` and a random tail), signed in as its client, the map drawn. */
export async function openMapView(page: Page, name: string) {
  const seeded = await seedMapProject(`${name} ${crypto.randomBytes(3).toString('hex')}`)
  await signIn(page, seeded.clientEmail, DEMO_PASSWORD)
  await page.goto(`/projects/${seeded.projectId}/map`)
  const map = page.getByTestId('deliverables-map')
  await expect(map.locator('.leaflet-container')).toBeVisible()
  return { seeded, map }
}

/**
 * Marks the project completed now (or at `completedAt`) and stores the rasters as its
 * deliverables with ready viewing copies, as the upload path and the viewing-copy job leave
 * them. Returns the file id of each kind.
 */
export function storeReadyRasters(projectId: number, items: BuiltRaster[], completedAt = Date.now()) {
  const root = path.join(e2eDir, 'files')
  const db = new Database(path.join(e2eDir, 'kestrel.sqlite'))
  db.pragma('busy_timeout = 5000')
  const fileIds: Record<string, number> = {}
  try {
    const now = Date.now()
    db.prepare(`update projects set status = 'completed', completed_at = ? where id = ?`).run(
      completedAt,
      projectId,
    )
    for (const item of items) {
      const key = `projects/${projectId}/${crypto.randomUUID()}.tif`
      fs.mkdirSync(path.join(root, path.dirname(key)), { recursive: true })
      fs.copyFileSync(item.file, path.join(root, key))
      const views = `views/${projectId}-${crypto.randomUUID()}`
      fs.mkdirSync(path.join(root, 'views'), { recursive: true })
      fs.copyFileSync(item.cog, path.join(root, `${views}.tif`))
      fs.copyFileSync(item.preview, path.join(root, `${views}.png`))
      if (item.reduced) fs.copyFileSync(item.reduced, path.join(root, reducedCopyName(`${views}.tif`)))
      const row = db
        .prepare(
          `insert into project_files (project_id, file_name, original_name, file_url, file_type, file_size, file_category,
             sha256, deliverable_kind, raster_info, created_at)
           values (?, ?, ?, '', 'image/tiff', ?, 'processed_deliverable', ?, ?, ?, ?) returning id`,
        )
        .get(
          projectId,
          key,
          path.basename(item.file),
          fs.statSync(item.file).size,
          sha256Of(item.file),
          item.kind,
          JSON.stringify(item.facts),
          now,
        ) as { id: number }
      db.prepare(
        `insert into deliverable_views (file_id, status, progress_percent, attempts, cog_name, preview_name, thumbnail_name,
           min_value, max_value, started_at, finished_at, created_at, updated_at)
         values (?, 'ready', 100, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        row.id,
        `${views}.tif`,
        `${views}.png`,
        `${views}.png`,
        item.kind === 'elevation' ? (item.range?.[0] ?? 100) : null,
        item.kind === 'elevation' ? (item.range?.[1] ?? 110) : null,
        now,
        now,
        now,
        now,
      )
      fileIds[item.kind] = row.id
    }
  } finally {
    db.close()
  }
  return fileIds
}

/** Pixels of the orthomosaic's magenta (220, 40, 200 ± 20) drawn on the map's tile canvases. */
export async function orthomosaicPixelsOnScreen(page: Page, fileId: number) {
  return page.evaluate((id) => {
    let count = 0
    for (const canvas of document.querySelectorAll<HTMLCanvasElement>(`.cog-layer-${id} canvas`)) {
      const data = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data
      for (let i = 0; i < data.length; i += 4) {
        if (data[i + 3]! > 0 && data[i]! > 190 && data[i + 1]! < 70 && data[i + 2]! > 170) count++
      }
    }
    return count
  }, fileId)
}

/**
 * The canvas tile layers of the map in `testId` now: the tiles at the current zoom level and
 * how many of them Leaflet counts as loaded, tiles left on other levels, and the map's own
 * count of tiles still being read or failed.
 */
export async function canvasTilesOf(page: Page, testId: string) {
  return page.evaluate((id) => {
    const map = document.querySelector<HTMLElement>(`[data-testid="${id}"] .leaflet-container`)!
    let current = 0
    let loaded = 0
    let stale = 0
    for (const layer of map.querySelectorAll('.leaflet-layer')) {
      if (!layer.querySelector('canvas.leaflet-tile')) continue
      for (const level of layer.querySelectorAll<HTMLElement>('.leaflet-tile-container')) {
        const tiles = level.querySelectorAll('.leaflet-tile')
        // Leaflet stacks the current level on top: its z-index is the layer's maxZoom (22).
        if (level.style.zIndex === '22') {
          current += tiles.length
          loaded += level.querySelectorAll('.leaflet-tile-loaded').length
        } else stale += tiles.length
      }
    }
    return {
      current,
      loaded,
      stale,
      pending: Number(map.dataset.pendingTiles),
      failed: Number(map.dataset.failedTiles),
    }
  }, testId)
}
