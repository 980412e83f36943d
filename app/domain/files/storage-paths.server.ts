/**
 * Where stored files live under DATA_DIR (ADR 092):
 *   tmp/<random>                  bytes being received (multipart), removed at start
 *   tus/<id>, tus/<id>.json       resumable uploads in progress (expire)
 *   projects/<projectId>/<uuid>.<ext>   stored files; `project_files.file_name` is this key
 *   documents/…                   uploaded copies of pilot and operator documents
 *   views/<fileId>/…              viewing copies of raster deliverables (COG, preview, thumbnail)
 */
import fs from 'node:fs'
import path from 'node:path'
import { getEnv } from '#app/lib/config/env.server.ts'
import { DomainError } from '#app/lib/http/domain-error.ts'
import type { ProjectFile } from '#db/schema.ts'

import { FILE_MESSAGES } from './rules.ts'

function storageRoot() {
  return path.resolve(getEnv().DATA_DIR)
}

export function storagePaths(root = storageRoot()) {
  return {
    root,
    tmp: path.join(root, 'tmp'),
    tus: path.join(root, 'tus'),
    projects: path.join(root, 'projects'),
    /** Uploaded copies of pilot and operator documents. */
    documents: path.join(root, 'documents'),
    /** Viewing copies of raster deliverables, one folder per file. */
    views: path.join(root, 'views'),
  }
}

/** A processing job's own folder: the downloaded archive and the 3D tiles live here. */
export function jobFolder(jobId: number) {
  return path.join(storagePaths().root, 'processing', String(jobId))
}

export function ensureStorage() {
  const p = storagePaths()
  for (const dir of [p.tmp, p.tus, p.projects, p.documents, p.views]) fs.mkdirSync(dir, { recursive: true })
  return p
}

/** The absolute path of a stored key (404 for a key that would leave DATA_DIR). */
export function absolutePathOf(file: Pick<ProjectFile, 'fileName'>) {
  const root = storageRoot()
  const full = path.resolve(root, file.fileName)
  if (!full.startsWith(root + path.sep)) throw new DomainError(404, FILE_MESSAGES.notFound)
  return full
}
