export const styles = {
  title: { fontSize: 24, color: '#0B57D0', fontFamily: 'Roboto, sans-serif' },
  box: { padding: '16px', borderRadius: 8 },
};
