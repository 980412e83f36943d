/**
 * The viewing copy of a 1 GiB orthomosaic (ADR 232): an RGB GeoTIFF of ~1 GiB in UTM 34S,
 * stored as a deliverable, converted by the view job (gdalwarp → Web Mercator WEBP COG with
 * overviews, preview, thumbnail). Reports the time, the peak RSS of this Node process and the
 * peak RSS of the GDAL child processes (sampled from /proc every 100 ms). Goal: the server
 * stays under 300 MiB whatever the raster's size (GDAL does the reading, GDAL_CACHEMAX bounds it).
 * Run: npm run bench -- bench/raster-convert.bench.ts   (BENCH_RASTER_MB=256 for a quicker run)
 */
import fs from 'node:fs'
import { startViewJobs } from '#app/domain/deliverables/pipeline.server.ts'
import { storeProjectFile } from '#app/domain/files/project-files.server.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import { deliverableViews } from '#db/schema.ts'
import { createTestUser, insertProject } from '#tests/factories.ts'
import { buildRaster } from '#tests/helpers/rasters.ts'
import { eq } from 'drizzle-orm'
import { bench, describe } from 'vitest'

const MB = 1024 * 1024
const targetBytes = Number(process.env.BENCH_RASTER_MB ?? 1024) * MB
const side = Math.round(Math.sqrt(targetBytes / 3))

/** Resident set (KiB) of a process, from /proc. */
function rssKib(pid: number | 'self') {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8')
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0)
}

/** The pids whose parent is this process (the GDAL children). */
function childPids() {
  const out: number[] = []
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8')
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
      if (ppid === process.pid) out.push(Number(entry))
    } catch {
      // The process ended while we looked.
    }
  }
  return out
}

describe(`view copy of a ${Math.round((side * side * 3) / MB)} MiB RGB GeoTIFF`, () => {
  bench(
    'gdalwarp → COG + preview + thumbnail',
    async () => {
      const admin = await createTestUser({ role: 'admin' })
      const client = await createTestUser({ role: 'client' })
      const project = insertProject({ clientId: client.id })
      // 5 cm pixels, centred near Stellenbosch (UTM 34S).
      const half = (side * 0.05) / 2
      const file = buildRaster({
        epsg: 32734,
        ullr: [300_000 - half, 6_240_000 + half, 300_000 + half, 6_240_000 - half],
        widthPx: side,
        heightPx: side,
        bands: 3,
        type: 'Byte',
        creationOptions: ['BIGTIFF=IF_SAFER', 'TILED=YES'],
      })
      const stored = await storeProjectFile({
        user: admin,
        projectId: project.id,
        category: 'processed_deliverable',
        originalName: 'odm_orthophoto.tif',
        source: fs.createReadStream(file),
      })
      fs.rmSync(file, { force: true })
      let nodePeak = rssKib('self')
      let childPeak = 0
      const sampler = setInterval(() => {
        nodePeak = Math.max(nodePeak, rssKib('self'))
        for (const pid of childPids()) {
          try {
            childPeak = Math.max(childPeak, rssKib(pid))
          } catch {
            // ended
          }
        }
      }, 100)
      const started = performance.now()
      const runner = startViewJobs()
      await runner.idle()
      await runner.stop()
      clearInterval(sampler)
      const view = getDb().select().from(deliverableViews).where(eq(deliverableViews.fileId, stored.id)).get()
      console.log(
        `[bench] ${side}×${side} px: ${view?.status} in ${((performance.now() - started) / 1000).toFixed(1)} s; ` +
          `peak RSS Node ${(nodePeak / 1024).toFixed(0)} MiB, GDAL child ${(childPeak / 1024).toFixed(0)} MiB`,
      )
      if (view?.status !== 'ready') throw new Error(`conversion ended ${view?.status}: ${view?.error}`)
    },
    { iterations: 1, warmupIterations: 0, time: 0, warmupTime: 0 },
  )
})
