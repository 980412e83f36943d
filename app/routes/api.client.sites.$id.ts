/**
 * /api/client/sites/{id} (ADR 268): GET the site and its projects; PUT `{ name?, repeatEvery? }`
 * renames it or sets the repeat schedule (`null` cancels). Another client's site, and any site
 * for a pilot, is 404 (`getSiteForUser`); admins get the 403 of every /api/client route.
 */
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { requireApiUser } from '#app/domain/auth/guards.server.ts'
import {
  assertSomethingToUpdate,
  methodNotAllowed,
  parseId,
  readJsonBody,
  withApiErrors,
} from '#app/domain/http/api.server.ts'
import { SiteUpdateSchema } from '#app/domain/sites/site-schedule.ts'
import { getSiteWithProjects, updateSite } from '#app/domain/sites/sites.server.ts'

/** Clients and pilots reach the site check, so a pilot's answer is the same 404 as a stranger's. */
const SITE_ROLES = ['client', 'pilot'] as const

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireApiUser(request, [...SITE_ROLES])
  const id = parseId(params.id, 'site id')
  return withApiErrors(() => json(getSiteWithProjects(user, id)))
}

export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== 'PUT') return methodNotAllowed(['GET', 'PUT'])
  const user = await requireApiUser(request, [...SITE_ROLES])
  const id = parseId(params.id, 'site id')
  const input = await readJsonBody(request, SiteUpdateSchema)
  assertSomethingToUpdate(input)
  return withApiErrors(() => json({ site: updateSite(user, id, input) }))
}
