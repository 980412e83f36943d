import {
  getFormProps,
  getInputProps,
  useForm,
  type DefaultValue,
  type FormMetadata,
  type SubmissionResult,
} from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod'
import { Form, useActionData } from '@remix-run/react'
import { Field } from '#app/components/forms.tsx'
import { numberInputProps } from '#app/components/forms/number-input-props.ts'
import { ProcessingNodesSection } from '#app/components/processing/nodes-section.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { SectionHeader, TableCard } from '#app/components/ui/section-header.tsx'
import { StatusButton } from '#app/components/ui/status-button.tsx'
import { useIsPending } from '#app/components/ui/use-is-pending.ts'
import { DeliverableSettingsSchema } from '#app/domain/deliverables/schemas.ts'
import { PricingSettingsSchema } from '#app/domain/pricing/settings.ts'
import type { ReactNode } from 'react'
import type { z } from 'zod'

import { DroneProfilesSection } from './drone-profiles-section.tsx'
import { HealthSection } from './health-section.tsx'
import { MaterialsSection } from './materials-form.tsx'
import type { TabData } from './types.ts'
import { ActiveToggle, CreateLink, DataTable, RowActions, td } from './ui.tsx'

const PRICING_FIELDS = [
  {
    name: 'tier1Price',
    label: 'Tier 1 rate (local)',
    unit: 'R per m²',
    step: '0.001',
    hint: 'Within the local travel threshold',
  },
  {
    name: 'tier2Price',
    label: 'Tier 2 rate (regional)',
    unit: 'R per m²',
    step: '0.001',
    hint: 'Beyond the local threshold, under 100 km',
  },
  {
    name: 'tier3Price',
    label: 'Tier 3 rate (national)',
    unit: 'R per m²',
    step: '0.001',
    hint: '100 km or more from the nearest hub',
  },
  {
    name: 'areaThreshold',
    label: 'Area threshold',
    unit: 'm²',
    step: '1',
    hint: 'Area included in each tier’s minimum price',
  },
  {
    name: 'localTravelThreshold',
    label: 'Local travel threshold',
    unit: 'km',
    step: '0.1',
    hint: 'No per-km travel fee within this distance',
  },
  {
    name: 'travelFeeRate',
    label: 'Travel fee rate',
    unit: 'R per km',
    step: '0.01',
    hint: 'Charged per km beyond the threshold',
  },
  {
    name: 'localTravelFee',
    label: 'Local travel fee',
    unit: 'R',
    step: '0.01',
    hint: 'Fixed fee for the local tier',
  },
  { name: 'vatRate', label: 'VAT rate', unit: '%', step: '0.01', hint: 'Added on top of the subtotal' },
  {
    name: 'repeatDiscountPercent',
    label: 'Repeat discount',
    unit: '%',
    step: '0.01',
    hint: 'Off the survey price when a client flies a project again',
  },
  {
    name: 'repeatReminderDays',
    label: 'Repeat reminder days',
    unit: 'days',
    step: '1',
    hint: 'Before a scheduled survey’s date, its quote is made and e-mailed',
  },
  {
    name: 'sqmBasePrice',
    label: 'Legacy base price',
    unit: 'cents per m²',
    step: '1',
    hint: 'Kept for older quotes; not used for new ones',
  },
] as const

/** A form of the Settings tab: posts its intent to the tab, checked against its schema on both sides. */
function useSettingsForm<Schema extends z.ZodTypeAny>(options: {
  id: string
  intent: string
  schema: Schema
  defaultValue: DefaultValue<z.input<Schema>>
}) {
  const { id, intent, schema, defaultValue } = options
  const actionData = useActionData<{ intent?: string; result?: SubmissionResult<string[]> }>()
  const [form, fields] = useForm({
    id,
    constraint: getZodConstraint(schema),
    lastResult: actionData?.intent === intent ? actionData.result : undefined,
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
    shouldValidate: 'onBlur',
    defaultValue,
  })
  return { form, fields, pending: useIsPending({ intent }) }
}

function SettingsForm<Schema extends Record<string, unknown>>({
  form,
  intent,
  children,
}: {
  form: FormMetadata<Schema>
  intent: string
  children: ReactNode
}) {
  return (
    <Form
      method="post"
      action="/admin?tab=settings"
      preventScrollReset
      {...getFormProps(form)}
      className="space-y-4"
    >
      <input type="hidden" name="intent" value={intent} />
      {form.errors?.length ? <Alert tone="error">{form.errors.join(' ')}</Alert> : null}
      {children}
    </Form>
  )
}

function PricingForm({ pricing }: { pricing: TabData<'settings'>['pricing'] }) {
  const intent = 'admin-save-pricing'
  const { form, fields, pending } = useSettingsForm({
    id: 'pricing-form',
    intent,
    schema: PricingSettingsSchema,
    defaultValue: Object.fromEntries(Object.entries(pricing).map(([k, v]) => [k, String(v)])),
  })
  return (
    <SettingsForm form={form} intent={intent}>
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {PRICING_FIELDS.map((f) => (
          <Field
            key={f.name}
            labelProps={{ children: `${f.label} (${f.unit})` }}
            hint={f.hint}
            errors={fields[f.name].errors}
            inputProps={numberInputProps(fields[f.name], { step: f.step, min: 0 })}
          />
        ))}
      </div>
      <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-xs text-ink-500">
          Saved settings apply to new quotes immediately; quotes already stored keep their figures.
        </p>
        <StatusButton pending={pending} pendingLabel="Saving…">
          Save Pricing
        </StatusButton>
      </div>
    </SettingsForm>
  )
}

/** The one Deliverables form: viewing copies, change maps, automatic processing and delivery. */
function DeliverableSettingsForm({ settings }: { settings: TabData<'settings'>['deliverables'] }) {
  const intent = 'admin-save-deliverable-settings'
  const { form, fields, pending } = useSettingsForm({
    id: 'deliverable-settings-form',
    intent,
    schema: DeliverableSettingsSchema,
    defaultValue: {
      rasterMaxGigapixels: String(settings.rasterMaxGigapixels),
      changeMinimumCm: String(settings.changeMinimumCm),
      autoProcessPhotos: settings.autoProcessPhotos ? 'on' : undefined,
      deliverWhenDone: settings.deliverWhenDone ? 'on' : undefined,
    },
  })
  return (
    <SettingsForm form={form} intent={intent}>
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        <Field
          labelProps={{ children: 'Largest raster (gigapixels)' }}
          hint="Bigger GeoTIFFs are kept for download but get no viewing copy"
          errors={fields.rasterMaxGigapixels.errors}
          inputProps={numberInputProps(fields.rasterMaxGigapixels, { step: '0.01' })}
        />
        <Field
          labelProps={{ children: 'Minimum change (cm)' }}
          hint="A change map leaves smaller changes clear (drawing only: cut, fill and net count every cell); twice the coarser ground resolution of the two models when that is larger"
          errors={fields.changeMinimumCm.errors}
          inputProps={numberInputProps(fields.changeMinimumCm, { step: '0.1', min: 0 })}
        />
      </div>
      <label className="flex items-start gap-2 text-sm text-ink-800">
        <input
          {...getInputProps(fields.autoProcessPhotos, { type: 'checkbox' })}
          className="mt-0.5 h-4 w-4 rounded border-ink-300"
        />
        <span>
          Start processing automatically when the pilot marks the photo upload finished
          <span className="block text-xs text-ink-500">
            With the Standard preset (orthomosaic, DSM and DTM) on the first node that can take the photos.
          </span>
        </span>
      </label>
      <label className="flex items-start gap-2 text-sm text-ink-800">
        <input
          {...getInputProps(fields.deliverWhenDone, { type: 'checkbox' })}
          className="mt-0.5 h-4 w-4 rounded border-ink-300"
        />
        <span>
          Deliver processed results to the client automatically
          <span className="block text-xs text-ink-500">
            The default of the Process form: the project completes itself and the client is e-mailed once the
            results’ viewing copies are ready. Off: you review the results and press Complete.
          </span>
        </span>
      </label>
      <div className="flex justify-end">
        <StatusButton pending={pending} pendingLabel="Saving…">
          Save Deliverable Settings
        </StatusButton>
      </div>
    </SettingsForm>
  )
}

export function SettingsTab({ data }: { data: TabData<'settings'> }) {
  return (
    <div className="space-y-6">
      <HealthSection health={data.health} />
      <TableCard
        title="Hub terminals"
        description="Quotes are priced from the nearest active hub."
        actions={<CreateLink to="/admin/hubs/new">Add Hub</CreateLink>}
      >
        <DataTable
          columns={['Hub', 'Address', 'Coordinates', 'Active', 'Actions']}
          isEmpty={data.hubs.length === 0}
          empty="No hubs configured. Quotes are R0 until a hub exists."
        >
          {data.hubs.map((h) => (
            <tr key={h.id} data-testid={`hub-row-${h.name}`}>
              <td className={td}>
                <p className="font-medium text-ink-950">{h.name}</p>
                {h.description ? <p className="text-xs text-ink-500">{h.description}</p> : null}
              </td>
              <td className={td}>{h.address}</td>
              <td className={`${td} whitespace-nowrap font-mono text-xs`} data-format="coordinates">
                {`${h.latitude.toFixed(4)}, ${h.longitude.toFixed(4)}`}
              </td>
              <td className={td}>
                <ActiveToggle intent="admin-hub-active" id={h.id} isActive={h.isActive} label={h.name} />
              </td>
              <td className={td}>
                <RowActions
                  editTo={`/admin/hubs/${h.id}`}
                  deleteTo={`/admin/hubs/${h.id}/delete`}
                  label={h.name}
                />
              </td>
            </tr>
          ))}
        </DataTable>
      </TableCard>

      <DroneProfilesSection drones={data.drones} />

      <ProcessingNodesSection nodes={data.processingNodes} jobs={data.processingJobs} />

      <div className="card space-y-4 p-4 sm:p-6">
        <SectionHeader
          title="Pricing configuration"
          description="Area rates by distance tier, travel fees and VAT. Changes apply to new quotes; stored quotes keep their figures."
        />
        <PricingForm pricing={data.pricing} />
      </div>

      <div className="card space-y-4 p-4 sm:p-6">
        <SectionHeader
          title="Deliverables"
          description="Viewing copies of raster deliverables (the Map view's layers), the change maps' minimum change, and whether the photos are processed as soon as the pilot has uploaded them."
        />
        <DeliverableSettingsForm settings={data.deliverables} />
      </div>

      <MaterialsSection materials={data.materials} />
    </div>
  )
}
