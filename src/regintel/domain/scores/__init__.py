"""The open, explainable scoring models of docs/scores.md: pure functions over plain values.

- `figures`: one financial statement, its ratios and the Altman Z''-score;
- `fx`: euro conversion over a table of ECB reference rates handed in;
- `bands`: step functions with documented thresholds;
- `credit`: the credit score (0-100, grade A+ to F, ten factors, confidence, missing inputs), the grade
  history and the credit limit rule;
- `risk`: the risk score (0-100) and its drivers;
- `peers`: quartiles and a company's position among its peers; `similar`: competitor ranking.
"""
