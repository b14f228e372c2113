"""The worker process: webhook deliveries and e-mails from the outbox (`regintel worker`)."""
