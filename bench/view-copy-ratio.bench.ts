/**
 * How long a viewing copy takes against a plain `gdal_translate -of COG` of the same file
 * (the yardstick: 4.1–4.5× when the job warped to Web Mercator; goal ≤ 1.5×). The
 * source is a textured RGB orthomosaic in UTM 34S (a flat colour would compress to nothing),
 * stored as a deliverable and converted by the view job (a JPEG COG in the raster's own CRS with
 * overviews, no warp: the browser reprojects; preview, thumbnail, reduced copy), then timed
 * against gdal_translate -of COG on the same file and machine.
 * Run: npm run bench -- bench/view-copy-ratio.bench.ts   (BENCH_VIEW_MB=167 for the size; default 48)
 * The two runs are back to back; on a busy machine compare the CPU ratio (child user + system seconds).
 * 2026-11-28, 2 cores, 4096² (48 MiB), load 4.9: 1.11× wall, 1.39× CPU (loaded by other work, load 13–16: 1.17×, 1.54×)
 * (before, with the warp: 3.64× wall, 4.82× CPU on a quiet machine).
 */
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { startViewJobs } from '#app/domain/deliverables/pipeline.server.ts'
import { storeProjectFile } from '#app/domain/files/project-files.server.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import { deliverableViews } from '#db/schema.ts'
import { createTestUser, insertProject } from '#tests/factories.ts'
import { eq } from 'drizzle-orm'
import { bench, describe } from 'vitest'

const MB = 1024 * 1024
const side = Math.round(Math.sqrt((Number(process.env.BENCH_VIEW_MB ?? 48) * MB) / 3))

/** A tiled RGB GeoTIFF with gradients and noise, 5 cm pixels near Stellenbosch. */
function texturedOrthomosaic(dir: string) {
  const raw = path.join(dir, 'ortho.bin')
  const row = Buffer.alloc(side * 3)
  const fd = fs.openSync(raw, 'w')
  let seed = 12345
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff
      const noise = seed & 31
      row[x * 3] = ((x >> 3) + noise) & 255
      row[x * 3 + 1] = ((y >> 3) + noise) & 255
      row[x * 3 + 2] = (((x + y) >> 4) + noise) & 255
    }
    fs.writeSync(fd, row)
  }
  fs.closeSync(fd)
  fs.writeFileSync(
    path.join(dir, 'ortho.hdr'),
    `ENVI\nsamples = ${side}\nlines = ${side}\nbands = 3\nheader offset = 0\nfile type = ENVI Standard\ndata type = 1\ninterleave = bip\nbyte order = 0\n`,
  )
  const half = (side * 0.05) / 2
  const tif = path.join(dir, 'odm_orthophoto.tif')
  execFileSync('gdal_translate', [
    '-q',
    '-a_srs',
    'EPSG:32734',
    '-a_ullr',
    ...[300_000 - half, 6_240_000 + half, 300_000 + half, 6_240_000 - half].map(String),
    '-co',
    'TILED=YES',
    '-co',
    'BIGTIFF=IF_SAFER',
    raw,
    tif,
  ])
  fs.rmSync(raw)
  return tif
}

/** CPU seconds of this process's finished children (user + system): what a busy machine cannot blur. */
function childCpuSeconds() {
  // /proc/self/stat fields 16 and 17 (cutime, cstime), in clock ticks; the name (field 2) may hold spaces.
  const fields = fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ')
  return (Number(fields[13]) + Number(fields[14])) / 100
}

function seconds(since: number) {
  return (performance.now() - since) / 1000
}

describe(`a viewing copy of a ${Math.round((side * side * 3) / MB)} MiB RGB GeoTIFF against gdal_translate -of COG`, () => {
  bench(
    'view job ÷ plain COG',
    async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kestrel-view-ratio-'))
      try {
        const source = texturedOrthomosaic(dir)
        // The machine may be shared: the load at the start and the end says how far to trust the wall times.
        const loadBefore = os.loadavg()[0]!
        const cpuStarted = childCpuSeconds()
        const started = performance.now()
        execFileSync('gdal_translate', ['-q', '-of', 'COG', source, path.join(dir, 'plain-cog.tif')], {
          env: { ...process.env, GDAL_PAM_ENABLED: 'NO' },
        })
        const plain = seconds(started)
        const plainCpu = childCpuSeconds() - cpuStarted

        const admin = await createTestUser({ role: 'admin' })
        const client = await createTestUser({ role: 'client' })
        const project = insertProject({ clientId: client.id })
        const stored = await storeProjectFile({
          user: admin,
          projectId: project.id,
          category: 'processed_deliverable',
          originalName: 'odm_orthophoto.tif',
          source: fs.createReadStream(source),
        })
        const jobCpuStarted = childCpuSeconds()
        const jobStarted = performance.now()
        const runner = startViewJobs()
        await runner.idle()
        await runner.stop()
        const job = seconds(jobStarted)
        const jobCpu = childCpuSeconds() - jobCpuStarted
        const view = getDb()
          .select()
          .from(deliverableViews)
          .where(eq(deliverableViews.fileId, stored.id))
          .get()
        if (view?.status !== 'ready') throw new Error(`conversion ended ${view?.status}: ${view?.error}`)
        console.log(
          `[bench] ${side}×${side} px on ${os.availableParallelism()} cores (load ${loadBefore.toFixed(1)} → ${os.loadavg()[0]!.toFixed(1)}): ` +
            `gdal_translate -of COG ${plain.toFixed(1)} s, viewing copy ${job.toFixed(1)} s, ratio ${(job / plain).toFixed(2)}×; ` +
            `CPU ${plainCpu.toFixed(1)} s vs ${jobCpu.toFixed(1)} s, ${(jobCpu / plainCpu).toFixed(2)}×`,
        )
      } finally {
        fs.rmSync(dir, { recursive: true, force: true })
      }
    },
    { iterations: 1, warmupIterations: 0, time: 0, warmupTime: 0 },
  )
})
