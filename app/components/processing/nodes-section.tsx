/**
 * Settings: the processing nodes (NodeODM / ClusterODM) with their health, forms to add,
 * edit, disable and remove one (no JavaScript needed), and every processing job.
 */
import { Form, Link } from '@remix-run/react'
import { DataTable, td } from '#app/components/dashboard/admin/ui.tsx'
import { TableCard } from '#app/components/ui/section-header.tsx'
import { engineText } from '#app/domain/processing/engine.ts'
import { formatDate } from '#app/lib/format/dates.ts'
import { formatNumber } from '#app/lib/format/numbers.ts'

import { elapsedOf, statusText, type PanelJob } from './processing-panel.tsx'

const ACTION = '/admin/processing-nodes'
/** Columns shown from `sm` up (a phone reads them under the node), so its buttons stay on screen. */
const WIDE_ONLY = ['Status', 'Queue', 'Max photos', 'Engine']
const wide = 'hidden sm:table-cell'

export interface SettingsNode {
  id: number
  label: string
  url: string
  enabled: boolean
  online: boolean
  queueCount: number
  maxImages: number | null
  engineVersion: string | null
  lastSeenAt: string | null
  lastError: string | null
  hasToken: boolean
}

function NodeFields({ node }: { node?: SettingsNode }) {
  return (
    <>
      <label className="text-xs text-ink-600">
        Label
        <input
          name="label"
          required
          maxLength={100}
          defaultValue={node?.label}
          className="input mt-1 block w-full"
        />
      </label>
      <label className="text-xs text-ink-600">
        URL
        <input
          name="url"
          type="url"
          required
          maxLength={500}
          placeholder="http://odm.internal:3000"
          defaultValue={node?.url}
          className="input mt-1 block w-full"
        />
      </label>
      <label className="text-xs text-ink-600">
        Token {node?.hasToken ? '(kept; type a new one to replace it)' : '(optional)'}
        <input
          name="token"
          type="password"
          autoComplete="off"
          maxLength={500}
          className="input mt-1 block w-full"
        />
      </label>
    </>
  )
}

/** Online, offline or disabled, when it was last seen and the last error. */
function NodeStatus({ node }: { node: SettingsNode }) {
  return (
    <>
      <p className={node.online ? 'text-emerald-700' : 'text-red-700'}>
        {!node.enabled ? 'Disabled' : node.online ? 'Online' : 'Offline'}
      </p>
      <p className="text-xs text-ink-500">Last seen {formatDate(node.lastSeenAt, { withTime: true })}</p>
      {node.lastError ? <p className="break-words text-xs text-ink-500">{node.lastError}</p> : null}
    </>
  )
}

export function ProcessingNodesSection({
  nodes,
  jobs,
}: {
  nodes: SettingsNode[]
  jobs: Array<PanelJob & { projectId: number; projectName: string }>
}) {
  const newestId = Math.max(0, ...nodes.map((n) => n.id))
  return (
    <div id="processing-nodes" className="space-y-6">
      <TableCard
        title="Processing nodes"
        description="NodeODM or ClusterODM servers the photos are processed on; each is checked every 30 seconds."
      >
        <DataTable
          columns={['Node', ...WIDE_ONLY.map((label) => ({ label, className: wide })), 'Actions']}
          isEmpty={nodes.length === 0}
          empty="No processing nodes. Add one to process photos."
        >
          {nodes.map((n) => (
            <tr key={n.id} data-testid={`node-row-${n.label}`}>
              <td className={td}>
                <p className="break-words font-medium text-ink-950">{n.label}</p>
                <p className="break-all text-xs text-ink-500">{n.url}</p>
                {/* On a phone the status, queue and engine columns are hidden: they go here. */}
                <div className="mt-1 sm:hidden">
                  <NodeStatus node={n} />
                  <p className="text-xs text-ink-500">
                    Queue {formatNumber(n.queueCount)}
                    {n.engineVersion ? ` · ${engineText(n.engineVersion)}` : ''}
                  </p>
                </div>
              </td>
              <td className={`${td} ${wide}`}>
                <NodeStatus node={n} />
              </td>
              <td className={`${td} ${wide}`}>{formatNumber(n.queueCount)}</td>
              <td className={`${td} ${wide}`}>{n.maxImages === null ? '—' : formatNumber(n.maxImages)}</td>
              <td className={`${td} ${wide} text-xs`}>
                {n.engineVersion ? engineText(n.engineVersion) : '—'}
              </td>
              <td className={td}>
                <div className="flex flex-wrap gap-2">
                  <Form method="post" action={ACTION}>
                    <input type="hidden" name="intent" value="node-enabled" />
                    <input type="hidden" name="id" value={n.id} />
                    <input type="hidden" name="enabled" value={String(!n.enabled)} />
                    <button type="submit" className="btn-secondary btn-sm">
                      {n.enabled ? 'Disable' : 'Enable'}
                    </button>
                  </Form>
                  <Form method="post" action={ACTION}>
                    <input type="hidden" name="intent" value="node-delete" />
                    <input type="hidden" name="id" value={n.id} />
                    <button type="submit" className="btn-secondary btn-sm" aria-label={`Remove ${n.label}`}>
                      Remove
                    </button>
                  </Form>
                </div>
                <details className="mt-2">
                  <summary className="cursor-pointer break-words text-xs text-ink-600">
                    Edit {n.label}
                  </summary>
                  <Form method="post" action={ACTION} className="mt-2 grid gap-2">
                    <input type="hidden" name="intent" value="node-edit" />
                    <input type="hidden" name="id" value={n.id} />
                    <NodeFields node={n} />
                    {n.hasToken ? (
                      <label className="text-xs text-ink-600">
                        <input type="checkbox" name="clearToken" /> Remove the token
                      </label>
                    ) : null}
                    <button type="submit" className="btn-primary btn-sm">
                      Save node
                    </button>
                  </Form>
                </details>
              </td>
            </tr>
          ))}
        </DataTable>
        {/* Keyed by the newest node: a node added (online or kept offline) clears the form; a refusal keeps it. */}
        <Form
          key={newestId}
          data-testid="node-add-form"
          method="post"
          action={ACTION}
          className="grid gap-2 border-t border-ink-100 p-4 sm:grid-cols-4 sm:items-end"
        >
          <input type="hidden" name="intent" value="node-add" />
          <NodeFields />
          <button type="submit" className="btn-primary btn-sm">
            Add node
          </button>
        </Form>
      </TableCard>

      <TableCard title="Processing jobs" description="The latest photogrammetry jobs of every project.">
        <DataTable
          columns={['Project', 'Node', 'Stage', 'Elapsed']}
          isEmpty={jobs.length === 0}
          empty="No processing jobs yet."
        >
          {jobs.map((j) => (
            <tr key={j.id} data-testid={`processing-row-${j.id}`}>
              <td className={td}>
                <Link
                  to={`/admin/projects/${j.projectId}#pd-processing`}
                  className="font-medium text-ink-950 underline"
                >
                  {j.projectName}
                </Link>
              </td>
              <td className={td}>{j.nodeLabel ?? '—'}</td>
              <td className={td}>
                {statusText(j)}
                {j.stage ? <p className="text-xs text-ink-500">{j.stage}</p> : null}
              </td>
              <td className={td}>{elapsedOf(j)}</td>
            </tr>
          ))}
        </DataTable>
      </TableCard>
    </div>
  )
}
