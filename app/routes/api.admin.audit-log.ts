import { json, type LoaderFunctionArgs } from '@remix-run/node'
import { listAuditLog } from '#app/domain/audit/audit.server.ts'
import { requireApiUser } from '#app/domain/auth/guards.server.ts'
import { pageParam } from '#app/domain/http/query.ts'

export async function loader({ request }: LoaderFunctionArgs) {
  await requireApiUser(request, 'admin')
  const page = pageParam(new URL(request.url).searchParams.get('page'))
  const { entries } = listAuditLog({ page })
  return json(entries)
}
