import styled from "styled-components";
const Card = styled.div`
  background: #f8f9fa;
  border-radius: 12px;
`;
export const Badge = () => <span style={{ backgroundColor: "lch(50% 60 280)", margin: "0.5rem" }} />;
