/** `GET /api/account/export` — "Download my data": application/zip with data.json and the user's documents. */
import { buildAccountExport } from '#app/domain/account/account.server.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'

export const { action, loader } = apiRoute({
  GET: async ({ user }) => {
    const { bytes, fileName } = await buildAccountExport(user.id)
    return new Response(Buffer.from(bytes), {
      headers: {
        'Content-Type': 'application/zip',
        'Content-Disposition': `attachment; filename="${fileName}"`,
        'Cache-Control': 'private, no-store',
      },
    })
  },
})
