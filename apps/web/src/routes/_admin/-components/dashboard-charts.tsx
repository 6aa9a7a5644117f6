import { formatGermanDate, type IsoDate } from "@app/shared";
import type { ReactNode } from "react";
import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import type { RouterOutputs } from "@/lib/types";

export type DashboardData = RouterOutputs["admin"]["getDashboard"];

/** `23.11.` on the axis; the full date in tooltips and tables. */
const shortDay = (day: IsoDate) => formatGermanDate(day).slice(0, 6);
const longDay = (day: unknown) => formatGermanDate(day as IsoDate);

interface Series<T> {
  key: keyof T & string;
  label: string;
  color: string;
}

/**
 * A chart with its numbers as a table below it (collapsed): the drawing is hidden from assistive
 * technology and takes no focus, screen readers and keyboard users get the same numbers from the table,
 * and colour is never the only way to tell the series apart (legend and table).
 */
function ChartFigure<T extends { day: IsoDate }>({
  title,
  rows,
  series,
  children,
}: {
  title: string;
  rows: T[];
  series: Series<T>[];
  children: ReactNode;
}) {
  return (
    <figure className="flex flex-col gap-2 rounded-lg border border-slate-200 bg-white p-4">
      <figcaption className="font-semibold text-slate-900">{title}</figcaption>
      <div className="h-64" aria-hidden="true">
        <ResponsiveContainer width="100%" height="100%">
          {children}
        </ResponsiveContainer>
      </div>
      <details>
        <summary className="cursor-pointer text-sm text-brand-700 underline underline-offset-4">
          Werte als Tabelle
        </summary>
        <table className="mt-2 text-sm">
          <caption className="sr-only">{title}</caption>
          <thead>
            <tr>
              <th scope="col" className="pr-4 text-left">
                Tag
              </th>
              {series.map((s) => (
                <th key={s.key} scope="col" className="pr-4 text-right">
                  {s.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.day}>
                <th scope="row" className="pr-4 text-left font-normal">
                  {formatGermanDate(row.day)}
                </th>
                {series.map((s) => (
                  <td key={s.key} className="pr-4 text-right">
                    {String(row[s.key])}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}

const axes = [
  <CartesianGrid key="grid" strokeDasharray="3 3" stroke="#e2e8f0" />,
  <XAxis
    key="x"
    dataKey="day"
    tickFormatter={shortDay}
    tick={{ fontSize: 12, fill: "#334155" }}
    minTickGap={16}
  />,
  <YAxis key="y" allowDecimals={false} tick={{ fontSize: 12, fill: "#334155" }} width={40} />,
  <Tooltip key="tip" labelFormatter={longDay} />,
];

export default function DashboardCharts({ data }: { data: DashboardData }) {
  const sales: Series<DashboardData["salesPerDay"][number]>[] = [
    { key: "tickets", label: "Tickets", color: "#1e40af" },
    { key: "packages", label: "Kongresspakete", color: "#b45309" },
  ];
  const registrations: Series<DashboardData["registrationsPerDay"][number]>[] = [
    { key: "count", label: "Registrierungen", color: "#1e40af" },
  ];
  const attendance: Series<DashboardData["attendancePerDay"][number]>[] = [
    { key: "count", label: "Anwesende", color: "#047857" },
  ];
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <ChartFigure title="Verkäufe pro Tag (bezahlt)" rows={data.salesPerDay} series={sales}>
        <BarChart data={data.salesPerDay} accessibilityLayer={false}>
          {axes}
          <Legend />
          {sales.map((s) => (
            <Bar
              key={s.key}
              dataKey={s.key}
              name={s.label}
              stackId="sales"
              fill={s.color}
              isAnimationActive={false}
            />
          ))}
        </BarChart>
      </ChartFigure>
      <ChartFigure title="Registrierungen pro Tag" rows={data.registrationsPerDay} series={registrations}>
        <LineChart data={data.registrationsPerDay} accessibilityLayer={false}>
          {axes}
          <Line
            dataKey="count"
            name="Registrierungen"
            stroke="#1e40af"
            strokeWidth={2}
            dot={false}
            isAnimationActive={false}
          />
        </LineChart>
      </ChartFigure>
      <ChartFigure
        title="Anwesenheit pro Tag (Personen mit geöffnetem Video oder Webinar)"
        rows={data.attendancePerDay}
        series={attendance}
      >
        <BarChart data={data.attendancePerDay} accessibilityLayer={false}>
          {axes}
          <Bar dataKey="count" name="Anwesende" fill="#047857" isAnimationActive={false} />
        </BarChart>
      </ChartFigure>
    </div>
  );
}
