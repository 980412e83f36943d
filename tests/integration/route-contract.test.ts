/**
 * One contract per route kind, read from the route files so a route added later is held to
 * it: every /api route is `apiRoute({ … })` (405, role, ids, body, DomainError answers in one
 * place) and writes none of those by hand; every resource route outside /api (a share link's
 * files, the PDFs, the document copies, the upload forms) is `resourceRoute({ … })`; a page's
 * form intents are read through its intent schema.
 */
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import * as documentCopies from '#app/routes/document-copies.ts'
import * as invoicePdf from '#app/routes/invoices.$id.pdf.ts'
import * as pilotFiles from '#app/routes/pilot.projects.$projectId.files.ts'
import * as sharedFile from '#app/routes/s.$token_.files.$fileId.ts'
import { multipart, PNG_BYTES } from '#tests/helpers/files.ts'
import { callRoute } from '#tests/helpers/requests.ts'
import { describe, expect, test } from 'vitest'

const ROUTES = path.resolve('app/routes')

/** Route modules: flat files, or `route.tsx` inside a route folder. */
function routeModules() {
  return readdirSync(ROUTES, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isFile()) return [{ name: entry.name, file: path.join(ROUTES, entry.name) }]
    const inner = readdirSync(path.join(ROUTES, entry.name)).find((f) => /^route\.tsx?$/.test(f))
    return inner ? [{ name: entry.name, file: path.join(ROUTES, entry.name, inner) }] : []
  })
}

const modules = routeModules().map((m) => ({ ...m, source: readFileSync(m.file, 'utf8') }))
/** `api.$.ts` is the JSON 404 for unknown /api paths: no methods, so no apiRoute. */
const apiRoutes = modules.filter((m) => /^api[.+]/.test(m.name) && !/^api\.\$\.tsx?$/.test(m.name))
/** Resource routes outside /api: a share link's files, the PDFs, the document copies, the upload forms. */
const resourceRoutes = modules.filter(
  (m) =>
    !/^api[.+]/.test(m.name) &&
    !/export default|export \{[^}]*\bdefault\b/.test(m.source) &&
    /^s\.\$token_\.|pdf|^document-copies|\.files\.tsx?$/.test(m.name),
)

describe('route contract', () => {
  test('every /api route is apiRoute({ … }) and handles no method, id or error by hand', () => {
    expect(apiRoutes.length).toBeGreaterThan(70)
    const problems = apiRoutes.flatMap(({ name, source }) => [
      ...(/export const \{ (action, loader|loader, action) \} = apiRoute\(/.test(source)
        ? []
        : [`${name}: not export const { action, loader } = apiRoute({ … })`]),
      ...[
        'requireApiUser',
        'methodNotAllowed',
        'withApiErrors',
        'domainErrorResponse',
        'parseId(',
        'request.method !==',
        'Number(params',
      ]
        .filter((hand) => source.includes(hand))
        .map((hand) => `${name}: ${hand}`),
      ...(/export (async )?function (loader|action)\b/.test(source)
        ? [`${name}: its own loader or action`]
        : []),
    ])
    expect(problems).toEqual([])
  })

  test('every resource route outside /api is resourceRoute({ … }) and answers no method by hand', () => {
    expect(resourceRoutes.map((m) => m.name)).toEqual(
      expect.arrayContaining([
        's.$token_.files.$fileId.ts',
        'invoices.$id.pdf.ts',
        'document-copies.ts',
        'pilot.projects.$projectId.files.ts',
      ]),
    )
    const problems = resourceRoutes.flatMap(({ name, source }) => [
      // A share link's routes are `shareRoute`: resourceRoute with the link opened first.
      ...(/export const \{ (action, loader|loader, action) \} = (resourceRoute|shareRoute)\(/.test(source)
        ? []
        : [`${name}: not export const { loader, action } = resourceRoute({ … })`]),
      ...['methodNotAllowed', 'request.method !==']
        .filter((hand) => source.includes(hand))
        .map((hand) => `${name}: ${hand}`),
      ...(/export (async )?function (loader|action)\b|export const (loader|action)\b/.test(source)
        ? [`${name}: its own loader or action`]
        : []),
    ])
    expect(problems).toEqual([])
  })

  test('a method a resource route does not name is 405 with Allow, before its body is read', async () => {
    const upload = multipart({ pilotId: '1', document: 'rpl' }, { name: 'rpl.pdf', bytes: PNG_BYTES })
    const patchCopy = await callRoute(documentCopies.action, '/document-copies?back=/admin', {
      method: 'PATCH',
      form: upload,
    })
    expect(patchCopy.status).toBe(405)
    expect(patchCopy.headers.get('Allow')).toBe('GET, POST')
    const patchFiles = await callRoute(pilotFiles.action, '/pilot/projects/1/files', {
      method: 'PATCH',
      form: upload,
      params: { projectId: '1' },
    })
    expect(patchFiles.status).toBe(405)
    expect(patchFiles.headers.get('Allow')).toBe('GET, POST')
    const postShared = await callRoute(sharedFile.action, '/s/abc/files/1', {
      method: 'POST',
      form: { x: '1' },
      params: { token: 'abc', fileId: '1' },
    })
    expect(postShared.status).toBe(405)
    expect(postShared.headers.get('Allow')).toBe('GET')
    const deletePdf = await callRoute(invoicePdf.action, '/invoices/1/pdf', {
      method: 'DELETE',
      params: { id: '1' },
    })
    expect(deletePdf.status).toBe(405)
    expect(await deletePdf.json()).toEqual({ error: 'Method not allowed' })
  })

  test('a page route reads its id with pageId (no Number(params…)); refusals become status pages through asPage', () => {
    const pages = modules.filter((m) => !/^api[.+]/.test(m.name))
    const problems = pages.flatMap(({ name, source }) => [
      ...(source.includes('Number(params') ? [`${name}: Number(params…)`] : []),
      // A share link's file routes answer JSON: `sharedFile` (itself or through `sharedTileResponse`)
      // reads their id and gives the link's own 404.
      ...(/\$(id|[a-z]+Id)\b/.test(name) &&
      !source.includes('pageId(') &&
      !/\b(sharedFile|sharedTileResponse)\(/.test(source)
        ? [`${name}: no pageId`]
        : []),
    ])
    expect(problems).toEqual([])
  })

  test('a busy label comes from useIsPending, not a hand-written navigation check', () => {
    const sources = readdirSync(path.resolve('app'), { recursive: true, encoding: 'utf8' })
      .filter((f) => /\.tsx?$/.test(f) && !f.endsWith('use-is-pending.ts'))
      .map((f) => ({ name: f, source: readFileSync(path.resolve('app', f), 'utf8') }))
    expect(sources.length).toBeGreaterThan(300)
    const handWritten = /navigation\.formData|navigation\.state\s*(!==\s*'idle'|===\s*'(submitting|loading)')/
    expect(sources.filter(({ source }) => handWritten.test(source)).map(({ name }) => name)).toEqual([])
  })

  test('a form’s intent is read through its intent schema (readIntent), never by hand', () => {
    // The server side: routes, their controllers, the domain and lib (the client's pending checks are not reads).
    const sources = ['app/routes', 'app/domain', 'app/lib'].flatMap((dir) =>
      readdirSync(path.resolve(dir), { recursive: true, encoding: 'utf8' })
        .filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f))
        .map((f) => ({ name: `${dir}/${f}`, source: readFileSync(path.resolve(dir, f), 'utf8') })),
    )
    expect(sources.length).toBeGreaterThan(300)
    const handRead = /\.get\(\s*['"`]intent['"`]\s*\)/
    for (const read of ["formData.get('intent') === 'x'", 'String(form.get("intent"))', 'f.get( `intent` )'])
      expect(handRead.test(read)).toBe(true)
    expect(sources.filter(({ source }) => handRead.test(source)).map(({ name }) => name)).toEqual([
      // The one reader: the page's intent schema parses the posted field.
      'app/lib/http/intents.ts',
    ])
  })
})
