import { parseWithZod } from '@conform-to/zod'
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { HubForm } from '#app/components/dashboard/admin/hub-form.tsx'
import { AdminDialog } from '#app/components/dashboard/admin/ui.tsx'
import { hubErrorMessage, HubSchema } from '#app/domain/admin/schemas.ts'
import { requireRole } from '#app/domain/auth/guards.server.ts'
import { readFormBody } from '#app/domain/http/form-body.server.ts'
import { createToastHeaders, redirectWithToast } from '#app/domain/http/toast.server.ts'
import { findHub, updateHub } from '#app/domain/hubs/hubs.server.ts'

const CLOSE = '/admin?tab=settings'

function hubOf(params: { hubId?: string }) {
  const hub = findHub(Number(params.hubId))
  if (!hub) throw new Response('Hub not found', { status: 404 })
  return hub
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireRole(request, 'admin')
  return json({ hub: hubOf(params) })
}

export async function action({ request, params }: ActionFunctionArgs) {
  const admin = await requireRole(request, 'admin')
  const hub = hubOf(params)
  const submission = parseWithZod(await readFormBody(request), { schema: HubSchema })
  if (submission.status !== 'success') {
    return json(
      { result: submission.reply() },
      {
        status: 400,
        headers: await createToastHeaders({
          type: 'error',
          title: 'Validation Error',
          description: hubErrorMessage((submission.error ?? {}) as Record<string, string[]>),
        }),
      },
    )
  }
  const updated = updateHub(admin.id, hub.id, submission.value)
  return redirectWithToast(CLOSE, { title: 'Hub Updated', description: `${updated.name} has been saved.` })
}

export default function EditHubDialog() {
  const { hub } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  return (
    <AdminDialog title="Edit Hub" description={hub.name} closeTo={CLOSE}>
      <HubForm lastResult={actionData?.result} defaults={hub} closeTo={CLOSE} submitLabel="Save Hub" />
    </AdminDialog>
  )
}

export { AdminDialogErrorBoundary as ErrorBoundary } from '#app/components/dashboard/admin/ui.tsx'
