import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

/**
 * The dashboard's charts (recharts), in their own chunk: only the dashboard loads it, after its numbers. Each chart
 * repeats what a table beside it says, so it is hidden from screen readers (the table is what they read).
 */
export function BarPanel({ data, x, y, format }: { data: object[]; x: string; y: string; format?: (n: number) => string }) {
  return (
    <div aria-hidden="true" style={{ width: '100%', height: 220 }}>
      <ResponsiveContainer>
        <BarChart data={data} margin={{ top: 8, right: 8, bottom: 8, left: 8 }} accessibilityLayer={false}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey={x} tick={{ fontSize: 12 }} />
          <YAxis tick={{ fontSize: 12 }} width={72} tickFormatter={format ? (v: number) => format(v) : undefined} />
          <Tooltip formatter={format ? (v) => format(Number(v)) : undefined} />
          <Bar dataKey={y} fill="#0b7a43" radius={[4, 4, 0, 0]} isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
