/** Real file contents for upload tests (each recognisable by its magic bytes). */
import crypto from 'node:crypto'
import fs from 'node:fs/promises'
import path from 'node:path'
import { storagePaths } from '#app/domain/files/storage-paths.server.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import { projectFiles, projects, type DeliverableKind, type ProjectStatus } from '#db/schema.ts'
import { signedInUser } from '#tests/helpers/users.ts'
import { eq } from 'drizzle-orm'
import { PDFDocument } from 'pdf-lib'

/** A 1×1 PNG. */
export const PNG_BYTES = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
)

/** A real one-page PDF with some text. */
export async function pdfBytes(text = 'Signed land owner permission') {
  const doc = await PDFDocument.create()
  const page = doc.addPage([300, 200])
  page.drawText(text, { x: 20, y: 100, size: 12 })
  return Buffer.from(await doc.save())
}

/** An MP4 header (ftyp box) followed by `size` bytes in all. */
export function mp4Bytes(size = 4096) {
  const buf = Buffer.alloc(size)
  Buffer.from([
    0, 0, 0, 0x18, 0x66, 0x74, 0x79, 0x70, 0x6d, 0x70, 0x34, 0x32, 0, 0, 0, 0, 0x6d, 0x70, 0x34, 0x32, 0x69,
    0x73, 0x6f, 0x6d,
  ]).copy(buf)
  for (let i = 24; i < size; i++) buf[i] = i % 251
  return buf
}

/** A PDF-looking file of `size` bytes (header, then padding): for size limits. */
export function bigPdfBytes(size: number) {
  const buf = Buffer.alloc(size, 0x20)
  Buffer.from('%PDF-1.7\n').copy(buf)
  return buf
}

export function insertProject(values: {
  clientId: number
  pilotId?: number | null
  status?: ProjectStatus
  completedAt?: Date | null
}) {
  return getDb()
    .insert(projects)
    .values({
      clientId: values.clientId,
      pilotId: values.pilotId ?? null,
      name: 'Survey of Erf 123',
      projectType: 'land-survey',
      status: values.status ?? 'assigned',
      completedAt: values.completedAt ?? null,
    })
    .returning()
    .get()
}

/** A project of a new client, flown by a new pilot, and a new admin: each signed in. */
export async function projectWithTeam(values: { status?: ProjectStatus; completedAt?: Date | null } = {}) {
  const client = await signedInUser('client')
  const pilot = await signedInUser('pilot')
  const admin = await signedInUser('admin')
  const project = insertProject({ clientId: client.user.id, pilotId: pilot.user.id, ...values })
  return { client, pilot, admin, project }
}

export function getProject(id: number) {
  return getDb().select().from(projects).where(eq(projects.id, id)).get()!
}

export function multipart(
  fields: Record<string, string>,
  file?: { name: string; bytes: Uint8Array; type?: string },
) {
  const form = new FormData()
  for (const [k, v] of Object.entries(fields)) form.append(k, v)
  if (file)
    form.append(
      'file',
      new Blob([new Uint8Array(file.bytes)], { type: file.type ?? 'application/octet-stream' }),
      file.name,
    )
  return form
}

/** Stores a built raster as a project's deliverable of this kind (the row the upload path would write). */
export async function storeRasterDeliverable(
  projectId: number,
  source: string,
  kind: DeliverableKind,
  uploadedBy: number,
) {
  const key = `projects/${projectId}/${crypto.randomUUID()}.tif`
  const target = path.join(storagePaths().root, key)
  await fs.mkdir(path.dirname(target), { recursive: true })
  await fs.copyFile(source, target)
  const { size } = await fs.stat(target)
  return getDb()
    .insert(projectFiles)
    .values({
      projectId,
      fileName: key,
      originalName: path.basename(source),
      fileUrl: '',
      fileType: 'image/tiff',
      fileSize: size,
      fileCategory: 'processed_deliverable',
      uploadedBy,
      deliverableKind: kind,
    })
    .returning()
    .get()
}
