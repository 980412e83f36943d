/** `GET /api/account/export` — "Download my data" (ADR 111): application/zip with data.json and the user's documents. */
import type { LoaderFunctionArgs } from '@remix-run/node'
import { buildAccountExport } from '#app/domain/account/account.server.ts'
import { requireApiUser } from '#app/domain/auth/guards.server.ts'
import { methodNotAllowed, withApiErrors } from '#app/domain/http/api.server.ts'

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireApiUser(request)
  return withApiErrors(async () => {
    const { bytes, fileName } = await buildAccountExport(user.id)
    return new Response(Buffer.from(bytes), {
      headers: {
        'Content-Type': 'application/zip',
        'Content-Disposition': `attachment; filename="${fileName}"`,
        'Cache-Control': 'private, no-store',
      },
    })
  })
}

export function action() {
  return methodNotAllowed(['GET'])
}
