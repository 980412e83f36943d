import type { LoaderFunctionArgs } from '@remix-run/node'
import { json } from '@remix-run/node'
import { requireApiUser } from '#app/domain/auth/guards.server.ts'
import { listAuditLog } from '#app/domain/audit/audit.server.ts'

export async function loader({ request }: LoaderFunctionArgs) {
  await requireApiUser(request, 'admin')
  const page = Number(new URL(request.url).searchParams.get('page')) || 1
  const { entries } = listAuditLog({ page })
  return json(entries)
}
