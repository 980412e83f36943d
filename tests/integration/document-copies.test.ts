/**
 * Uploaded copies of pilot and operator documents through the routes: who may
 * upload and download, content sniffing and limits, replacing, the data export and
 * account deletion.
 */
import fs from 'node:fs'
import { absolutePathOf } from '#app/domain/files/storage-paths.server.ts'
import {
  createOperatorDocument,
  deleteOperatorDocument,
} from '#app/domain/operator/operator-documents.server.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import { action as deleteAccountAction } from '#app/routes/api.account.delete.ts'
import { loader as exportLoader } from '#app/routes/api.account.export.ts'
import { loader as downloadLoader } from '#app/routes/document-copies.$id.ts'
import { action as uploadAction } from '#app/routes/document-copies.ts'
import { documentCopies } from '#db/schema.ts'
import { signedInUser, TEST_PASSWORD } from '#tests/factories.ts'
import { bigPdfBytes, multipart, pdfBytes, PNG_BYTES } from '#tests/helpers/files.ts'
import { callRoute, toastOf } from '#tests/helpers/requests.ts'
import { eq } from 'drizzle-orm'
import { strFromU8, unzipSync } from 'fflate'
import { describe, expect, test } from 'vitest'

function upload(
  headers: Record<string, string>,
  fields: Record<string, string>,
  file = { name: 'rpl.pdf', bytes: PNG_BYTES as Uint8Array },
) {
  return callRoute(uploadAction, '/document-copies?back=/admin?tab=compliance', {
    form: multipart(fields, file),
    headers: { ...headers, Origin: 'http://localhost:3999' },
  })
}

function copies() {
  return getDb().select().from(documentCopies).all()
}

function download(headers: Record<string, string>, id: number) {
  return callRoute(downloadLoader, `/document-copies/${id}`, { headers, params: { id: String(id) } })
}

/** The toast the redirect carries, as the next page would read it. */

describe('pilot document copies', () => {
  test('the admin and the pilot upload, the pilot replaces; a PNG named .pdf is stored as the PNG it is', async () => {
    const admin = await signedInUser('admin')
    const pilot = await signedInUser('pilot')
    const res = await upload(admin.headers, { pilotId: String(pilot.user.id), document: 'rpl' })
    expect(res.status).toBe(302)
    expect(res.headers.get('Location')).toBe('/admin?tab=compliance')
    const [first] = copies()
    expect(first).toMatchObject({ pilotId: pilot.user.id, pilotDocument: 'rpl', fileType: 'image/png' })
    expect(fs.existsSync(absolutePathOf(first!))).toBe(true)

    const replaced = await upload(
      pilot.headers,
      { pilotId: String(pilot.user.id), document: 'rpl' },
      { name: 'rpl-2027.pdf', bytes: await pdfBytes('RPL') },
    )
    expect(replaced.status).toBe(302)
    const after = copies()
    expect(after).toHaveLength(1)
    expect(after[0]).toMatchObject({ originalName: 'rpl-2027.pdf', fileType: 'application/pdf' })
    // The replaced bytes are gone.
    expect(fs.existsSync(absolutePathOf(first!))).toBe(false)
  })

  test('refused: another pilot, a client, a text file, a file over 10 MB, an unknown target', async () => {
    const pilot = await signedInUser('pilot')
    const other = await signedInUser('pilot')
    const client = await signedInUser('client')
    const admin = await signedInUser('admin')
    const target = { pilotId: String(pilot.user.id), document: 'medical' }
    const before = copies().length
    expect(await toastText(await upload(other.headers, target))).toContain('Document not found')
    expect(await toastText(await upload(client.headers, target))).toContain('Document not found')
    expect(
      await toastText(
        await upload(admin.headers, target, { name: 'medical.pdf', bytes: Buffer.from('plain text') }),
      ),
    ).toContain('Only PDF, JPG, JPEG, PNG files are allowed')
    expect(
      await toastText(
        await upload(admin.headers, target, {
          name: 'medical.pdf',
          bytes: bigPdfBytes(10 * 1024 * 1024 + 1),
        }),
      ),
    ).toContain('File size must be less than 10MB')
    expect(
      await toastText(await upload(admin.headers, { pilotId: String(client.user.id), document: 'rpl' })),
    ).toContain('Document not found')
    expect(await toastText(await upload(admin.headers, { document: 'rpl' }))).toContain(
      'Choose the document this copy belongs to',
    )
    expect(copies()).toHaveLength(before)
    const leftovers = fs.readdirSync(`${process.env.DATA_DIR}/tmp`)
    expect(leftovers).toEqual([])
  })

  test('downloads: admins and the pilot themself; others 404', async () => {
    const admin = await signedInUser('admin')
    const pilot = await signedInUser('pilot')
    const other = await signedInUser('pilot')
    const client = await signedInUser('client')
    await upload(admin.headers, { pilotId: String(pilot.user.id), document: 'medical' })
    const copy = copies().find((c) => c.pilotId === pilot.user.id)!
    for (const who of [admin, pilot]) {
      const res = await download(who.headers, copy.id)
      expect(res.status).toBe(200)
      expect(Buffer.from(await res.arrayBuffer())).toEqual(PNG_BYTES)
    }
    for (const who of [other, client]) {
      const res = await download(who.headers, copy.id).catch((r: Response) => r)
      expect(res.status).toBe(404)
    }
    const missing = await download(admin.headers, 999_999).catch((r: Response) => r)
    expect(missing.status).toBe(404)
  })

  test('the pilot’s data export holds the copies; deleting the account removes them', async () => {
    const admin = await signedInUser('admin')
    const pilot = await signedInUser('pilot')
    await upload(admin.headers, { pilotId: String(pilot.user.id), document: 'rpl' })
    const copy = copies().find((c) => c.pilotId === pilot.user.id)!
    const zip = await callRoute(exportLoader, '/api/account/export', { headers: pilot.headers })
    const files = unzipSync(new Uint8Array(await zip.arrayBuffer()))
    const data = JSON.parse(strFromU8(files['data.json']!))
    expect(data.pilotDocuments).toEqual([expect.objectContaining({ id: copy.id, document: 'rpl' })])
    expect(Object.keys(files)).toContain(`documents/rpl-${copy.id}-rpl.pdf`)

    const deleted = await callRoute(deleteAccountAction, '/api/account/delete', {
      json: { password: TEST_PASSWORD },
      headers: pilot.headers,
    })
    expect(deleted.status).toBe(200)
    expect(getDb().select().from(documentCopies).where(eq(documentCopies.id, copy.id)).get()).toBeUndefined()
    expect(fs.existsSync(absolutePathOf(copy))).toBe(false)
  })
})

describe('operator document copies', () => {
  test('admins only; removing the document removes its copy', async () => {
    const admin = await signedInUser('admin')
    const pilot = await signedInUser('pilot')
    const doc = createOperatorDocument(admin.user.id, {
      kind: 'roc',
      reference: 'ROC-ZA-0042',
      subject: null,
      coverAmount: null,
      expiresAt: '2099-01-01',
    })
    expect(await toastText(await upload(pilot.headers, { operatorDocumentId: String(doc.id) }))).toContain(
      'Document not found',
    )
    await upload(
      admin.headers,
      { operatorDocumentId: String(doc.id) },
      { name: 'roc.pdf', bytes: await pdfBytes() },
    )
    const copy = copies().find((c) => c.operatorDocumentId === doc.id)!
    expect(copy.fileType).toBe('application/pdf')
    expect((await download(pilot.headers, copy.id).catch((r: Response) => r)).status).toBe(404)
    expect((await download(admin.headers, copy.id)).status).toBe(200)

    deleteOperatorDocument(admin.user.id, doc.id)
    expect(copies().find((c) => c.id === copy.id)).toBeUndefined()
    expect(fs.existsSync(absolutePathOf(copy))).toBe(false)
  })
})

/** The flashed toast as text, for `toContain` checks. */
async function toastText(res: Response) {
  return JSON.stringify(await toastOf(res))
}
