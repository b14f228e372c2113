"""Scores: financial history, credit score and grade, credit limit, risk, peers, competitors, disputes
(spec 4.4; docs/scores.md). Other areas call `service.credit_grade` and `service.risk`."""
