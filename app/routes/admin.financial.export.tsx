// 'Export CSV': the financial report as a streamed CSV download.
import type { LoaderFunctionArgs } from '@remix-run/node'
import { csvFileName, financialCsvStream, parseDateRange } from '#app/domain/admin/finance.server.ts'
import { requireRole } from '#app/domain/auth/guards.server.ts'

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, 'admin')
  const range = parseDateRange(new URL(request.url).searchParams)
  return new Response(financialCsvStream(range), {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${csvFileName()}"`,
      'Cache-Control': 'no-store',
    },
  })
}
