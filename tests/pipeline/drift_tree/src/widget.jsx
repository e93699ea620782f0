export const W = () => <div style={{ color: "#fff", gap: 16 }} />;
