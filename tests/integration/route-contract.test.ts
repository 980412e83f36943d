/**
 * One contract per route kind, read from the route files so a route added later is held to
 * it: every /api route is `apiRoute({ … })` (405, role, ids, body, DomainError answers in one
 * place) and writes none of those by hand.
 */
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
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

  test('a page route reads its id with pageId (no Number(params…)); refusals become status pages through asPage', () => {
    const pages = modules.filter((m) => !/^api[.+]/.test(m.name))
    const problems = pages.flatMap(({ name, source }) => [
      ...(source.includes('Number(params') ? [`${name}: Number(params…)`] : []),
      // A share link's file routes answer JSON: `sharedFile` reads their id and gives the link's own 404.
      ...(/\$(id|[a-z]+Id)\b/.test(name) && !source.includes('pageId(') && !source.includes('sharedFile(')
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
})
