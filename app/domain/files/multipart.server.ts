/**
 * Multipart uploads (the /api calls and the no-JavaScript forms), parsed with busboy as
 * the request streams in: the file part goes straight to disk through the storage
 * service, never into memory. Fields sent before the file (the forms put projectId and
 * category first) let us refuse a wrong project before storing anything.
 */
import fs from 'node:fs'
import { Readable } from 'node:stream'
import type { ReadableStream as WebReadableStream } from 'node:stream/web'
import { getEnv } from '#app/lib/config/env.server.ts'
import { DomainError } from '#app/lib/http/domain-error.ts'
import type { FileCategory, User } from '#db/schema.ts'
import busboy from 'busboy'

import { requireUploadTarget } from './access.server.ts'
import { assertRoomFor } from './disk-space.server.ts'
import { type FileView } from './file-view.ts'
import { registerProjectFile } from './project-files.server.ts'
import { receiveStream, type ReceivedFile } from './receive.server.ts'
import { FILE_LIMITS, FILE_MESSAGES, isFileCategory, maxBytesForCategory } from './rules.ts'

type Actor = Pick<User, 'id' | 'role'>

export interface MultipartUploadOptions {
  /** The category when the form has none (or none is allowed to be chosen). */
  defaultCategory: FileCategory
  /** The name of the file field (default `file`). */
  fileField?: string
}

export interface MultipartUploadResult {
  file: FileView
  fields: Record<string, string>
}

export async function discard(file: ReceivedFile) {
  await fs.promises.rm(file.path, { force: true })
}

export function isMultipart(request: Request) {
  return (request.headers.get('Content-Type') ?? '').toLowerCase().startsWith('multipart/form-data')
}

function readTarget(fields: Record<string, string>, defaultCategory: FileCategory) {
  const projectId = Number(fields.projectId)
  if (!Number.isInteger(projectId) || projectId <= 0) return null
  const raw = fields.category?.trim()
  const category = raw ? raw : defaultCategory
  if (!isFileCategory(category))
    throw new DomainError(400, 'Invalid file category', {
      fieldErrors: { category: ['Invalid file category'] },
    })
  return { projectId, category }
}

export interface MultipartFile {
  received: ReceivedFile
  originalName: string
  fields: Record<string, string>
}

/**
 * Reads a multipart request with one file (field `fileField`, default `file`) streamed to
 * tmp/ through the storage service. `maxBytesFor(fields)` sees the fields sent before the
 * file: it returns the size ceiling, or throws to refuse the upload before anything is
 * stored. The caller registers or discards `received`.
 */
export async function readMultipartFile(
  request: Request,
  options: { maxBytesFor: (fields: Record<string, string>) => number; fileField?: string },
): Promise<MultipartFile> {
  if (!isMultipart(request) || !request.body) throw new DomainError(400, FILE_MESSAGES.noFile)
  await assertRoomFor(Number(request.headers.get('Content-Length')) || 0)
  const fileField = options.fileField ?? 'file'
  const fields: Record<string, string> = {}
  let received: Promise<ReceivedFile> | null = null
  let originalName = ''
  let earlyError: unknown = null

  let parser: ReturnType<typeof busboy>
  try {
    parser = busboy({
      headers: { 'content-type': request.headers.get('Content-Type') ?? '' },
      // Browsers send a file's name as UTF-8; busboy's default (latin1) garbles "Ré-survey".
      defParamCharset: 'utf8',
      limits: { files: 1, fields: 30, fieldSize: 64 * 1024, parts: 40 },
    })
  } catch {
    // busboy throws at once for a multipart type without a boundary: a broken form, not a bug.
    throw new DomainError(400, FILE_MESSAGES.noFile)
  }
  const parsed = new Promise<void>((resolve, reject) => {
    parser.on('field', (name, value) => {
      fields[name] = value
    })
    parser.on('file', (name, stream, info) => {
      if (name !== fileField || received || earlyError || !info.filename) {
        stream.resume()
        return
      }
      let ceiling: number
      try {
        ceiling = options.maxBytesFor(fields)
      } catch (error) {
        earlyError = error
        stream.resume()
        return
      }
      originalName = info.filename
      received = receiveStream(stream, ceiling)
      // Keep the rejection handled until we await it below.
      received.catch(() => {})
    })
    parser.on('error', reject)
    parser.on('close', resolve)
  })

  const source = Readable.fromWeb(request.body as WebReadableStream<Uint8Array>)
  source.on('error', (error) => parser.destroy(error))
  source.pipe(parser)
  try {
    await parsed
  } catch {
    const file = await (received as Promise<ReceivedFile> | null)?.catch(() => null)
    if (file) await discard(file)
    throw new DomainError(400, FILE_MESSAGES.uploadFailed(originalName || 'file'))
  }
  if (earlyError) throw earlyError
  if (!received)
    throw new DomainError(400, FILE_MESSAGES.noFile, { fieldErrors: { file: [FILE_MESSAGES.noFile] } })
  return { received: await (received as Promise<ReceivedFile>), originalName, fields }
}

/**
 * Reads a multipart request with one file (`file`), `projectId` and optional `category`,
 * checks who may upload what where, and stores the file. Throws DomainError (400, 404,
 * 403, 413, 415, 507) with the product's messages.
 */
export async function receiveMultipartUpload(
  request: Request,
  user: Actor,
  options: MultipartUploadOptions,
): Promise<MultipartUploadResult> {
  const {
    received: file,
    originalName,
    fields,
  } = await readMultipartFile(request, {
    fileField: options.fileField,
    maxBytesFor: (fields) => {
      const target = readTarget(fields, options.defaultCategory)
      if (!target) return Math.max(...Object.values(FILE_LIMITS))
      requireUploadTarget(user, target.projectId, target.category)
      return maxBytesForCategory(target.category, getEnv().DELIVERABLE_MAX_BYTES)
    },
  })
  let target: ReturnType<typeof readTarget>
  try {
    target = readTarget(fields, options.defaultCategory)
  } catch (error) {
    await discard(file)
    throw error
  }
  if (!target) {
    await discard(file)
    throw new DomainError(400, 'Invalid project', { fieldErrors: { projectId: ['Invalid project'] } })
  }
  const view = await registerProjectFile({
    user,
    projectId: target.projectId,
    category: target.category,
    originalName,
    received: file,
  })
  return { file: view, fields }
}
