import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { HubForm } from '#app/components/dashboard/admin/hub-form.tsx'
import { AdminDialog } from '#app/components/dashboard/admin/ui.tsx'
import { hubErrorMessage, HubSchema } from '#app/domain/admin/schemas.ts'
import { requireRole } from '#app/domain/auth/guards.server.ts'
import { findHub, updateHub } from '#app/domain/hubs/hubs.server.ts'
import { readFormBody } from '#app/lib/http/form-body.server.ts'
import { pageId } from '#app/lib/http/page-errors.server.ts'
import { foundOr404 } from '#app/routes/_helpers/admin-dialogs.server.ts'
import { submitAdminForm } from '#app/routes/_helpers/admin-forms.server.ts'

const CLOSE = '/admin?tab=settings'

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireRole(request, 'admin')
  return json({ hub: foundOr404(findHub(pageId(params.hubId)), 'Hub not found') })
}

export async function action({ request, params }: ActionFunctionArgs) {
  const admin = await requireRole(request, 'admin')
  const hub = foundOr404(findHub(pageId(params.hubId)), 'Hub not found')
  return submitAdminForm(await readFormBody(request), {
    schema: HubSchema,
    failure: hubErrorMessage,
    failureTitle: 'Validation Error',
    closeTo: CLOSE,
    save: (value) => updateHub(admin.id, hub.id, value),
    done: (updated) => ({ title: 'Hub Updated', description: `${updated.name} has been saved.` }),
  })
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
