"""Not an MCP server: prints garbage on stdout and waits, as a misconfigured command would."""
import sys
import time

sys.stdout.write("Welcome! This is not JSON-RPC.\n{broken json\n\x00\x01 garbage\n")
sys.stdout.flush()
time.sleep(600)
